//! The operations of the command routes, built by hand until their handlers are annotated
//! (the other routes carry `#[utoipa::path]` next to their handlers).

use super::build::*;

pub use api::doc::{AUTH, DECLARATIONS};

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
    ops.extend(ports_and_audit());
    ops.extend(customer_archive());
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
                 `username` may also be the Easy-clear ID a customer bound: when no account has \
                 that username, it signs in the customer's earliest-created active login \
                 (`GET /api/v1/session` then answers `easyClearIdLogin: true`). \
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

/// Port management and the administration audit view (docs/ports.md).
fn ports_and_audit() -> Vec<Op> {
    use utoipa::openapi::path::HttpMethod;
    let port_body = |required: &[&str]| {
        object(
            "Only these fields are taken.",
            vec![
                ("portCode", string("3 letters; upper-cased.")),
                ("portName", string("At most 50 characters.")),
                ("portNameEn", opt_string("At most 100 characters.")),
                ("declarationSlic", string("4 digits.")),
            ]
            .into_iter()
            .filter(|(k, _)| !required.is_empty() || *k != "portCode")
            .collect(),
            required,
        )
    };
    let facility_body = |required: &[&str]| {
        object(
            "Only these fields are taken.",
            vec![
                ("upsFacilityName", string("At most 100 characters.")),
                (
                    "upsFacilitySlic",
                    string("4 digits, unique among the port's facilities."),
                ),
            ],
            required,
        )
    };
    let port_id =
        |op: Op| op.path_param("id", uuid(""), "The port's id (unknown or malformed: 404).");
    let slic_id =
        |op: Op| port_id(op).path_param("slicId", uuid(""), "The facility's id (unknown: 404).");
    let reason = object(
        "",
        vec![("reason", opt_string("At most 200 characters."))],
        &[],
    );
    vec![
        command_answer(
            Op::post("/api/v1/ports", AUTH, "createPort", "Register a port")
                .description("Needs `ports:management`. A live port with the code: 409.")
                .bearer()
                .if_match()
                .form_or_json_body(
                    true,
                    "",
                    port_body(&["portCode", "portName", "declarationSlic"]),
                ),
        )
        .errors(&[400, 403, 409, 415]),
        command_answer(
            port_id(Op::put("/api/v1/ports/{id}", AUTH, "updatePort", "Change a port"))
                .description("Needs `ports:management`. Absent fields are unchanged; an empty `portNameEn` empties it.")
                .bearer()
                .if_match()
                .form_or_json_body(true, "", port_body(&[])),
        )
        .errors(&[400, 403, 404, 409, 415]),
        command_answer(
            port_id(Op::new(HttpMethod::Delete, "/api/v1/ports/{id}", AUTH, "deletePort", "Delete a port (soft)"))
                .description("Needs `ports:management`. Its code may be registered again later.")
                .bearer()
                .if_match()
                .form_or_json_body(false, "", reason.clone()),
        )
        .errors(&[400, 403, 404, 409]),
        command_answer(
            port_id(Op::post("/api/v1/ports/{id}/slics", AUTH, "addPortSlic", "Add a facility (SLIC)"))
                .description("Needs `ports:add-slic`. A SLIC the port has already: 409.")
                .bearer()
                .if_match()
                .form_or_json_body(true, "", facility_body(&["upsFacilityName", "upsFacilitySlic"])),
        )
        .errors(&[400, 403, 404, 409, 415]),
        command_answer(
            slic_id(Op::put("/api/v1/ports/{id}/slics/{slicId}", AUTH, "updatePortSlic", "Change a facility"))
                .description("Needs `ports:add-slic`. Absent fields are unchanged.")
                .bearer()
                .if_match()
                .form_or_json_body(true, "", facility_body(&[])),
        )
        .errors(&[400, 403, 404, 409, 415]),
        command_answer(
            slic_id(Op::new(HttpMethod::Delete, "/api/v1/ports/{id}/slics/{slicId}", AUTH, "removePortSlic", "Remove a facility"))
                .description("Needs `ports:add-slic`.")
                .bearer()
                .if_match()
                .form_or_json_body(false, "", reason),
        )
        .errors(&[400, 403, 404, 409]),
    ]
}

/// The customer archive (docs/customers.md).
fn customer_archive() -> Vec<Op> {
    use utoipa::openapi::path::HttpMethod;
    let types = array(
        string_enum("", &["OB", "OC", "OD", "IB", "IC", "ID"]),
        "The declaration types the customer files; empty: every type.",
    );
    let profile_fields = || {
        vec![
            ("companyName", string("Required, at most 200 characters.")),
            ("city", opt_string("")),
            ("portCode", opt_string("3 letters; upper-cased.")),
            ("slicCode", opt_string("4 digits.")),
            ("postalCode", opt_string("6 digits.")),
            ("upsAccount", opt_string("")),
            (
                "upsId",
                opt_string("The Easy-clear ID the customer's users must bind."),
            ),
            ("accountNo", opt_string("")),
            ("email", opt_string("An e-mail address.")),
            (
                "scc",
                opt_string("Unified social credit code (18 characters, check character verified)."),
            ),
            ("declarationTypes", types.clone()),
        ]
    };
    let new_login = object(
        "The login created.",
        vec![
            ("id", uuid("The account's id.")),
            ("username", string("")),
            (
                "initialPassword",
                opt_string(
                    "The generated password, answered this once (null when the caller chose it, and on a replay).",
                ),
            ),
        ],
        &["id", "username"],
    );
    let created = object(
        "The command answer and the login created, if any.",
        vec![
            ("id", uuid("")),
            ("version", integer("")),
            ("position", integer("")),
            ("account", new_login),
        ],
        &["id", "version", "position"],
    );
    let create_body = {
        let mut fields = vec![(
            "username",
            string("Letters, digits and . _ - @, at most 64."),
        )];
        fields.extend(profile_fields());
        fields.extend([
            (
                "createLogin",
                boolean("Create the first login named like the customer (default true)."),
            ),
            (
                "loginEmail",
                opt_string("The login's e-mail (default: `email`)."),
            ),
            (
                "initialPassword",
                opt_string("Must meet the password rule; generated when absent."),
            ),
        ]);
        object(
            "Only these fields are taken.",
            fields,
            &["username", "companyName"],
        )
    };
    let update_body = object(
        "Only these fields are taken; absent: unchanged, null or empty: cleared.",
        profile_fields(),
        &[],
    );
    let reason = object(
        "",
        vec![("reason", opt_string("At most 500 characters."))],
        &[],
    );
    let id = |op: Op| {
        op.path_param(
            "id",
            uuid(""),
            "The customer's id (unknown, deleted or malformed: 404).",
        )
    };
    vec![
        Op::post("/api/v1/customers", AUTH, "createCustomer", "Register a customer (and its first login)")
            .description(
                "Needs `customers:create`. A username taken by a customer or a login: 409. The login must set \
                 its own password at its first sign-in (10002). With `Idempotency-Key` a retry with the same \
                 body answers the first result again; the same key with another body answers 409.",
            )
            .bearer()
            .header("Idempotency-Key", string(""), "1-200 characters; makes the create safe to retry.")
            .form_or_json_body(true, "", create_body)
            .ok("Created.", created.clone())
            .errors(&[400, 403, 409, 415]),
        command_answer(
            id(Op::put("/api/v1/customers/{id}", AUTH, "updateCustomer", "Maintain a customer's profile"))
                .description("Needs `customers:maintain`. Each changed field is recorded old -> new. The username stays.")
                .bearer()
                .if_match()
                .form_or_json_body(true, "", update_body),
        )
        .errors(&[400, 403, 404, 409, 415]),
        command_answer(
            id(Op::post("/api/v1/customers/{id}/disable", AUTH, "disableCustomer", "Disable a customer"))
                .description("Needs `customers:maintain`. Its users cannot sign in (10000, cancelled) and their sessions end.")
                .bearer()
                .if_match()
                .form_or_json_body(false, "", reason.clone()),
        )
        .errors(&[400, 403, 404, 409]),
        command_answer(
            id(Op::post("/api/v1/customers/{id}/enable", AUTH, "enableCustomer", "Enable a customer"))
                .description("Needs `customers:maintain`.")
                .bearer()
                .if_match()
                .form_or_json_body(false, "", reason.clone()),
        )
        .errors(&[400, 403, 404, 409]),
        command_answer(
            id(Op::new(HttpMethod::Delete, "/api/v1/customers/{id}", AUTH, "deleteCustomer", "Delete a customer (soft)"))
                .description(
                    "Needs `customers:delete`. Refused (409 `DECLARATIONS_IN_PROGRESS`) while any of its \
                     declarations is in status 1, 2 or 3. Its users can no longer sign in.",
                )
                .bearer()
                .if_match()
                .form_or_json_body(false, "", reason),
        )
        .errors(&[400, 403, 404, 409, 503]),
        id(Op::post("/api/v1/customers/{id}/accounts", AUTH, "addCustomerLogin", "Add a login to a customer"))
            .description("Needs `customers:maintain`. Answers the account's `{id, version, position}` and `account`.")
            .bearer()
            .form_or_json_body(
                true,
                "",
                object(
                    "Only these fields are taken.",
                    vec![
                        ("username", string("")),
                        ("email", opt_string("")),
                        ("initialPassword", opt_string("Generated when absent.")),
                    ],
                    &["username"],
                ),
            )
            .ok("Created.", created)
            .errors(&[400, 403, 404, 409, 415]),
    ]
}
