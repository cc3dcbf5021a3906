//! Every operation of docs/api.md and of the routes the server mounts, in one table.

use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::{ContentBuilder, ResponseBuilder};

use super::build::*;
use super::schemas::STATUS_TEXT;

pub const AUTH: &str = "auth";
pub const DECLARATIONS: &str = "declarations";
pub const REFERENCE: &str = "reference";
pub const OPERATIONS: &str = "operations";

const XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

fn id_param(op: Op) -> Op {
    op.path_param(
        "id",
        uuid(""),
        "The declaration's id (a malformed id answers 404).",
    )
}

fn command_answer(op: Op) -> Op {
    op.ok(
        "Done: the new version and the event's global position.",
        r("CommandAnswer"),
    )
}

fn date_range(op: Op, on: &str) -> Op {
    op.query(
        "fromDate",
        day(""),
        &format!("First day (YYYYMMDD, Asia/Shanghai, inclusive) on {on}."),
    )
    .query(
        "toDate",
        day(""),
        &format!("Last day (YYYYMMDD, Asia/Shanghai, inclusive) on {on}."),
    )
}

fn declaration_type(op: Op) -> Op {
    op.query(
        "declarationType",
        string(""),
        "Class letter `B`, `C`, `D` (with `shipmentType`) or type code `OB OC OD IB IC ID`.",
    )
}

fn shipment_type(op: Op) -> Op {
    op.query(
        "shipmentType",
        integer_enum("", &[-1, 0, 1]),
        "-1 both (default), 0 import, 1 export; a type code it contradicts answers 400.",
    )
}

fn paging(op: Op) -> Op {
    op.query("pageNo", integer(""), "1-based page number (default 1).")
        .query(
            "pageSize",
            integer(""),
            "Rows per page (default 10, at most 500).",
        )
}

fn tracking_numbers(op: Op) -> Op {
    op.query(
        "trackingNumber",
        string(""),
        "One or many tracking numbers, separated by commas or newlines (exact match).",
    )
}

fn reason_body(op: Op, required: bool) -> Op {
    let reason = opt_string("Trimmed, at most 500 characters.");
    let required_fields: &[&str] = if required { &["reason"] } else { &[] };
    op.json_body(
        required,
        "",
        object("", vec![("reason", reason)], required_fields),
    )
}

/// A state-machine move on one declaration: `POST /api/v1/declarations/{id}/<action>`.
fn action(path: &'static str, id: &str, summary: &str, description: &str) -> Op {
    let op = Op::post(path, DECLARATIONS, id, summary).description(description);
    command_answer(id_param(op).bearer().if_match()).errors(&[400, 403, 404, 409])
}

pub fn operations() -> Vec<Op> {
    let mut ops = auth();
    ops.extend(declaration_commands());
    ops.extend(declaration_queries());
    ops.extend(reference_and_operations());
    ops
}

fn auth() -> Vec<Op> {
    let credentials = object(
        "",
        vec![("username", string("")), ("password", string(""))],
        &["username", "password"],
    );
    vec![
        Op::post("/auth/login", AUTH, "login", "Sign in with username and password")
            .description(
                "Form-encoded (the contract) or JSON. Success: `data` is the token string. \
                 Every failed login is business code 10000 (HTTP 200) with one message, whether the \
                 user exists or not; 10002 new user (`data: {tempToken}`), 10003 password update \
                 needed, 10004 account transfer (`data: {transferAuthorization}`), 10006 account locked. \
                 Demo accounts (development mode): `acme`, `globex`, `operator`, `admin`, `superadmin`, \
                 password `Demopass2026`.",
            )
            .form_or_json_body(true, "Credentials.", credentials)
            .ok(
                "Signed in (`code` 200, `data` the token), or a business code 10000-10006 (still HTTP 200).",
                one_of(
                    "",
                    vec![
                        string("The bearer token (code 200)."),
                        object("Code 10002.", vec![("tempToken", string(""))], &["tempToken"]),
                        object(
                            "Code 10004.",
                            vec![("transferAuthorization", any(""))],
                            &["transferAuthorization"],
                        ),
                        null("Codes 10000, 10003, 10006."),
                    ],
                ),
            )
            .errors(&[400, 415, 429]),
        Op::post("/auth/logout", AUTH, "logout", "Sign out (revoke this session)")
            .bearer()
            .ok("The session is revoked; its token no longer works.", null("")),
        Op::get("/api/v1/oauth/token/test", AUTH, "testToken", "Token without a password (development only)")
            .description("Development mode only; answers 404 in production.")
            .query("userName", string(""), "The account to sign in as.")
            .ok("The bearer token.", string(""))
            .errors(&[400, 404]),
        Op::get("/api/v1/customer/profile", AUTH, "customerProfile", "The signed-in customer's profile")
            .bearer()
            .ok("The profile.", r("CustomerProfile"))
            .errors(&[404]),
        Op::get("/api/v1/staff/profile", AUTH, "staffProfile", "The signed-in staff member's profile")
            .bearer()
            .ok("The profile.", r("StaffProfile"))
            .errors(&[403, 404]),
        Op::get("/api/v1/user-permissions", AUTH, "userPermissions", "The signed-in user's permissions")
            .bearer()
            .ok("The permission codes.", array(r("Permission"), "")),
        Op::get("/api/v1/session", AUTH, "session", "Who am I")
            .bearer()
            .ok("The token's user.", r("Session")),
        Op::post("/api/v1/account/password/change", AUTH, "changePassword", "Change one's own password")
            .description(
                "Form-encoded or JSON. The new password: 10-26 characters, two of uppercase, lowercase \
                 and digits, not containing the name, username or e-mail. A wrong old password is \
                 business code 10005 (HTTP 200). Every session of the account is revoked.",
            )
            .bearer()
            .form_or_json_body(
                true,
                "",
                object(
                    "",
                    vec![
                        ("username", string("Optional; must be the caller's own.")),
                        ("oldPassword", string("")),
                        ("newPassword", string("")),
                        ("confirmNewPassword", string("")),
                    ],
                    &["oldPassword", "newPassword", "confirmNewPassword"],
                ),
            )
            .ok("Changed (or code 10005).", null(""))
            .errors(&[400, 403, 404, 415]),
    ]
}

fn declaration_commands() -> Vec<Op> {
    let create_body = all_of(
        "",
        vec![
            object(
                "",
                vec![
                    (
                        "declarationType",
                        string(
                            "Type code (`OB` ... `ID`), or class letter `B`/`C`/`D` with `shipmentType`.",
                        ),
                    ),
                    ("shipmentType", integer_enum("0 import, 1 export.", &[0, 1])),
                    (
                        "customerId",
                        uuid(
                            "Staff only: the customer to file for (a customer files for their own company).",
                        ),
                    ),
                ],
                &["declarationType"],
            ),
            r("DeclarationForm"),
        ],
    );
    vec![
        Op::post("/api/v1/declarations", DECLARATIONS, "createDeclaration", "Create a draft declaration")
            .description(
                "Customers, operators and admins. `declarationType` and `trackingNumber` suffice; staff \
                 add `customerId`. Creates status 0 (draft). With `Idempotency-Key` a retry with the same \
                 body answers the first result again; the same key with another body answers 409.",
            )
            .bearer()
            .header(
                "Idempotency-Key",
                string(""),
                "1-200 characters; makes the create safe to retry.",
            )
            .json_body(true, "", create_body)
            .ok("Created.", r("CommandAnswer"))
            .errors(&[400, 403, 409, 413, 415]),
        id_param(
            Op::put("/api/v1/declarations/{id}", DECLARATIONS, "editDeclaration", "Edit a declaration (the whole form)")
                .description(
                    "Replaces the whole form. The owner or staff while 0 or 11, staff while 10; any other \
                     status answers 409.",
                ),
        )
        .bearer()
        .if_match()
        .json_body(true, "", r("DeclarationForm"))
        .ok("Edited.", r("CommandAnswer"))
        .errors(&[400, 403, 404, 409, 413, 415]),
        action(
            "/api/v1/declarations/{id}/submit",
            "submitDeclaration",
            "Submit (0 -> 1, 11 -> 1)",
            "Customer or operator. Runs the full validation of the class: field errors answer 400.",
        ),
        action(
            "/api/v1/declarations/{id}/withdraw",
            "withdrawDeclaration",
            "Withdraw a submission (1 -> 0)",
            "The owning customer.",
        ),
        action(
            "/api/v1/declarations/{id}/review",
            "reviewDeclaration",
            "Review: declared to customs (1 -> 2)",
            "Operator or admin.",
        ),
        reason_body(
            action(
                "/api/v1/declarations/{id}/return",
                "returnDeclaration",
                "Return to the customer (1 -> 11)",
                "Operator or admin, with a reason.",
            ),
            true,
        ),
        action(
            "/api/v1/declarations/{id}/complete",
            "completeDeclaration",
            "Complete (2 -> 3)",
            "Operator or admin, with an optional customs receipt code P (released) or R (closed).",
        )
        .json_body(
            false,
            "",
            object(
                "",
                vec![("receiptCode", string_enum("", &["P", "R"]))],
                &[],
            ),
        ),
        action(
            "/api/v1/declarations/{id}/reject",
            "rejectDeclaration",
            "Customs rejected (2 -> 10)",
            "Operator or admin, with a reason and an optional receipt code E, Z or Y.",
        )
        .json_body(
            true,
            "",
            object(
                "",
                vec![
                    ("reason", string("Trimmed, at most 500 characters.")),
                    ("receiptCode", string_enum("", &["E", "Z", "Y"])),
                ],
                &["reason"],
            ),
        ),
        action(
            "/api/v1/declarations/{id}/redeclare",
            "redeclareDeclaration",
            "Declare again (10 -> 2)",
            "Operator or admin.",
        ),
        reason_body(
            action(
                "/api/v1/declarations/{id}/send-back",
                "sendBackDeclaration",
                "Send back to the customer (10 -> 11)",
                "Operator or admin, with a reason.",
            ),
            true,
        ),
        action(
            "/api/v1/declarations/{id}/amend",
            "amendDeclaration",
            "Amend a completed declaration (3 -> 2)",
            "Admin. `changes` maps a top-level field (`grossWeight`), a goods-line field \
             (`declarationGoodsInfo[0].goodsCode`) or a whole goods line to its new value; the result \
             must pass the full rules.",
        )
        .json_body(
            true,
            "",
            object(
                "",
                vec![
                    ("reason", string("Trimmed, at most 500 characters.")),
                    (
                        "changes",
                        open_object("Field path -> new value (at least one).", vec![], &[]),
                    ),
                ],
                &["reason", "changes"],
            ),
        ),
        reason_body(
            action(
                "/api/v1/declarations/{id}/delete",
                "deleteDeclaration",
                "Delete (0 -> 5, 11 -> 5)",
                "From 0: customer, operator or admin; from 11: customer or admin. Final. \
                 (`/abandon` is an alias.)",
            ),
            false,
        ),
    ]
}

fn declaration_queries() -> Vec<Op> {
    let list = Op::get(
        "/api/v1/declarations",
        DECLARATIONS,
        "listDeclarations",
        "List and search declarations",
    )
    .description(
        "Staff see every customer's declarations, customers only their own company's. Deleted \
             ones only when `status=5` is asked.",
    )
    .bearer();
    let list = shipment_type(declaration_type(list)).query(
        "status",
        integer_enum("", &[-1, 0, 1, 2, 3, 4, 5, 10, 11]),
        &format!("-1 all (default, deleted excluded). {STATUS_TEXT}"),
    );
    let list = tracking_numbers(list)
        .query("username", string(""), "The owning customer account.")
        .query("customerId", uuid(""), "The owning customer.")
        .query("port", string(""), "")
        .query("slic", string(""), "");
    let list = paging(date_range(list, "the creation time"))
        .query(
            "sort",
            string(""),
            "`field,asc|desc` with field one of createdAt (default, desc), updatedAt, trackingNumber, \
             status, estimatedPickupTime, declarationType.",
        )
        .min_position()
        .ok("A page of summaries.", page(r("DeclarationSummary")))
        .errors(&[400]);

    let counts = Op::get(
        "/api/v1/declarations/counts",
        DECLARATIONS,
        "countDeclarations",
        "Dashboard counts",
    )
    .description(
        "Counts per type and status, and per day. Customers count their own company's only.",
    )
    .bearer();
    let counts = date_range(declaration_type(shipment_type(counts)), "the creation time")
        .min_position()
        .ok("The counts.", r("Counts"))
        .errors(&[400]);

    let activity = Op::get(
        "/api/v1/declarations/activity",
        DECLARATIONS,
        "declarationActivity",
        "Activity feed: who did what, when",
    )
    .description(
        "Events across declarations, newest first. Customers see their own company's only.",
    )
    .bearer()
    .query("actor", string(""), "The actor's username.")
    .query(
        "action",
        string_enum(
            "",
            &[
                "create",
                "edit",
                "submit",
                "withdraw",
                "review",
                "return",
                "complete",
                "reject",
                "redeclare",
                "send-back",
                "amend",
                "delete",
            ],
        ),
        "",
    );
    let activity = paging(date_range(
        tracking_numbers(shipment_type(declaration_type(activity))),
        "the event time",
    ))
    .min_position()
    .ok("A page of events.", page(r("ActivityEntry")))
    .errors(&[400]);

    let export_form = object(
        "The export form.",
        vec![
            (
                "declarationType",
                string("Class letter (default D) or type code."),
            ),
            ("username", string("Customer account; empty for all.")),
            ("port", string("")),
            ("slic", string("")),
            (
                "shipmentType",
                integer_enum("-1 both, 0 import, 1 export.", &[-1, 0, 1]),
            ),
            ("status", integer("-1 all but deleted.")),
            ("fromDate", day("YYYYMMDD, required.")),
            (
                "toDate",
                day("YYYYMMDD, required, at most 365 days after `fromDate`."),
            ),
            (
                "sort",
                integer_enum(
                    "1 port, 2 customer account, 3 estimated pickup time ascending, 4 descending; default newest first.",
                    &[1, 2, 3, 4],
                ),
            ),
        ],
        &["fromDate", "toDate"],
    );
    let export_ok = ResponseBuilder::new()
        .description("The workbook.")
        .content(
            XLSX,
            ContentBuilder::new().schema(Some(typed_binary())).build(),
        )
        .header(
            "Content-Disposition",
            HeaderBuilder::new()
                .schema(string(""))
                .description(Some("`attachment` with a safe file name."))
                .build(),
        )
        .build();

    vec![
        list,
        id_param(Op::get(
            "/api/v1/declarations/{id}",
            DECLARATIONS,
            "getDeclaration",
            "One declaration in full",
        ))
        .description("A declaration the caller may not see answers 404, like a missing one.")
        .bearer()
        .min_position()
        .ok(
            "The declaration, with its `version` for `If-Match`.",
            r("Declaration"),
        )
        .errors(&[404]),
        id_param(Op::get(
            "/api/v1/declarations/{id}/history",
            DECLARATIONS,
            "declarationHistory",
            "A declaration's history",
        ))
        .description(
            "Every event in version order: who, when, status from -> to, reason, fields changed.",
        )
        .bearer()
        .min_position()
        .ok("The events.", array(r("HistoryEntry"), ""))
        .errors(&[404]),
        counts,
        activity,
        Op::post(
            "/api/v1/declarations/batch-export",
            DECLARATIONS,
            "exportDeclarations",
            "Export declarations as xlsx",
        )
        .description("Admins only. Form-encoded or JSON. Errors are JSON envelopes.")
        .bearer()
        .form_or_json_body(true, "", export_form)
        .response("200", export_ok)
        .errors(&[400, 403, 415]),
    ]
}

fn typed_binary() -> S {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .content_media_type(XLSX)
        .into()
}

fn reference_and_operations() -> Vec<Op> {
    let cache_headers = |b: ResponseBuilder| {
        b.header(
            "ETag",
            HeaderBuilder::new()
                .schema(string(""))
                .description(Some("Strong validator of the rows."))
                .build(),
        )
        .header(
            "Cache-Control",
            HeaderBuilder::new()
                .schema(string(""))
                .description(Some("`public, max-age=300`."))
                .build(),
        )
    };
    let rows = cache_headers(
        ResponseBuilder::new()
            .description("The rows in force on the date.")
            .content(
                "application/json",
                ContentBuilder::new()
                    .schema(Some(envelope(array(r("ReferenceRow"), ""))))
                    .build(),
            ),
    )
    .build();
    let not_modified =
        cache_headers(ResponseBuilder::new().description("`If-None-Match` matched: no body."))
            .build();
    vec![
        Op::get(
            "/api/v1/reference/{table}",
            REFERENCE,
            "referenceTable",
            "A reference table's rows on a date",
        )
        .description("Public code lists: no token needed.")
        .path_param(
            "table",
            string_enum("", query::reference::TABLES),
            "The table.",
        )
        .query("date", day(""), "YYYYMMDD; default today (Asia/Shanghai).")
        .header(
            "If-None-Match",
            string(""),
            "An `ETag` from an earlier answer.",
        )
        .response("200", rows)
        .response("304", not_modified)
        .errors(&[400, 404]),
        Op::get(
            "/api/v1/health",
            OPERATIONS,
            "health",
            "Health and read-model lag",
        )
        .description("No token needed.")
        .ok("Healthy.", r("Health"))
        .errors(&[503]),
    ]
}
