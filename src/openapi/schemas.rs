//! The reusable parts of the document: component schemas, the shared error answers and the
//! bearer security scheme. Field lists follow docs/api.md and docs/fields.md.

use serde_json::json;
use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{Components, ComponentsBuilder, ContentBuilder, ResponseBuilder};

use super::build::*;

/// The declaration status codes (docs/fields.md).
pub const STATUSES: &[i64] = &[0, 1, 2, 3, 4, 5, 10, 11];

pub const STATUS_TEXT: &str = "Status: 0 draft, 1 unprocessed (submitted), 2 reviewed not completed, 3 completed, \
4 document exception, 10 returned not completed, 11 returned not submitted, 5 deleted.";

pub const TYPE_CODES: &[&str] = &["OB", "OC", "OD", "IB", "IC", "ID"];

pub fn components() -> Components {
    let mut b = ComponentsBuilder::new().security_scheme(
        BEARER,
        SecurityScheme::Http(
            HttpBuilder::new()
                .scheme(HttpAuthScheme::Bearer)
                .bearer_format("JWT")
                .description(Some(
                    "`Authorization: Bearer <token>` with the token from `POST /auth/login` \
                     (a bare token is accepted too). Within the last 300 s of a token's life an \
                     answer carries `refreshed: true` and a new `accessToken`: use it from then on.",
                ))
                .build(),
        ),
    );
    for (name, schema) in schemas() {
        b = b.schema(name, schema);
    }
    for (name, response) in responses() {
        b = b.response(name, response);
    }
    b.build()
}

fn schemas() -> Vec<(&'static str, S)> {
    vec![
        ("Envelope", envelope_schema()),
        (
            "FieldError",
            object(
                "One field that failed a rule.",
                vec![
                    (
                        "field",
                        string("JSON path of the field, e.g. `declarationGoodsInfo[2].goodsCode`."),
                    ),
                    (
                        "message",
                        string("What is wrong, in the language of `Accept-Language`."),
                    ),
                ],
                &["field", "message"],
            ),
        ),
        (
            "Page",
            object(
                "A page of a list (`pageNo` is 1-based; `pageSize` defaults to 10, at most 500).",
                vec![
                    ("records", array(any(""), "The rows of this page.")),
                    (
                        "total",
                        integer("Rows matching the filters, over all pages."),
                    ),
                ],
                &["records", "total"],
            ),
        ),
        ("Declaration", declaration()),
        ("DeclarationForm", declaration_form()),
        ("CreateDeclaration", create_declaration()),
        ("LoginAnswer", login_answer()),
        ("GoodsLine", goods_line()),
        ("Product", product()),
        (
            "FieldChange",
            object(
                "One changed field.",
                vec![
                    (
                        "field",
                        string("JSON path, e.g. `grossWeight` or `declarationGoodsInfo[3]`."),
                    ),
                    ("old", any("The value before (`null` when added).")),
                    ("new", any("The value after (`null` when removed).")),
                ],
                &["field", "old", "new"],
            ),
        ),
        (
            "ReferenceRows",
            array(
                r("ReferenceRow"),
                "The rows of a reference table in force on a date.",
            ),
        ),
        (
            "ReferenceRow",
            open_object(
                "One row of a reference table; the imported file's other columns follow.",
                vec![
                    ("code", string("")),
                    (
                        "name",
                        string(
                            "Chinese name, where the table has one (the tariff's is `name_zh`; the tax rules have none).",
                        ),
                    ),
                    ("nameEn", opt_string("English name, where known.")),
                ],
                &["code"],
            ),
        ),
        (
            "Session",
            object(
                "Who the token belongs to.",
                vec![
                    ("userId", uuid("")),
                    ("username", string("")),
                    ("displayName", string("")),
                    (
                        "role",
                        string_enum("", &["CUSTOMER", "OPERATOR", "ADMIN", "SUPER_ADMIN"]),
                    ),
                    (
                        "roles",
                        array(
                            string_enum("", &["CUSTOMER", "OPERATOR", "ADMIN", "SUPER_ADMIN"]),
                            "Every role of the account, by `sortNo` (`role` is the first).",
                        ),
                    ),
                    (
                        "customerId",
                        opt_uuid("The customer (company) of a customer account; null for staff."),
                    ),
                    (
                        "easyClearIdLogin",
                        boolean(
                            "true when this session was opened with the customer's bound \
                             Easy-clear ID in place of the username (the spec's client flag \
                             `isEasyClearIdLogin`: the client then skips `GET /api/v1/ups-id`).",
                        ),
                    ),
                    (
                        "preLogout",
                        object(
                            "The request to make before logging out; present only when the \
                             server is configured with one.",
                            vec![
                                ("url", string("")),
                                ("method", string("")),
                                ("params", any("")),
                            ],
                            &["url", "method"],
                        ),
                    ),
                    ("expiresAt", opt_date_time("When the token expires.")),
                ],
                &[
                    "userId",
                    "username",
                    "displayName",
                    "role",
                    "roles",
                    "easyClearIdLogin",
                ],
            ),
        ),
        (
            "CustomerProfile",
            object(
                "The signed-in customer's profile.",
                vec![
                    ("customerId", uuid("")),
                    ("username", string("")),
                    (
                        "userName",
                        string("Same as `username` (the spec's spelling)."),
                    ),
                    ("companyName", string("")),
                    ("department", string("")),
                    ("city", opt_string("")),
                    ("portCode", opt_string("")),
                    ("slicCode", opt_string("")),
                    ("postalCode", opt_string("")),
                    (
                        "isLocked",
                        boolean("true: must bind an Easy-clear ID first (not a brute-force lock)."),
                    ),
                    ("upsAccount", opt_string("")),
                    ("upsId", opt_string("")),
                    ("accountNo", opt_string("")),
                    ("email", opt_string("")),
                ],
                &["customerId", "username", "companyName", "isLocked"],
            ),
        ),
        (
            "StaffProfile",
            object(
                "The signed-in staff member's profile.",
                vec![
                    ("staffId", opt_string("")),
                    ("staffEmail", opt_string("")),
                    ("staffName", string("")),
                    (
                        "roleList",
                        array(
                            object(
                                "",
                                vec![
                                    (
                                        "roleCode",
                                        string_enum(
                                            "",
                                            &["SUPER_ADMIN", "ADMIN", "OPERATOR", "CUSTOMER"],
                                        ),
                                    ),
                                    ("sortNo", integer("")),
                                ],
                                &["roleCode", "sortNo"],
                            ),
                            "",
                        ),
                    ),
                ],
                &["staffName", "roleList"],
            ),
        ),
        (
            "Health",
            object(
                "Liveness and read-model lag.",
                vec![
                    ("status", string_enum("", &["ok"])),
                    ("mode", string_enum("", &["development", "production"])),
                    ("version", string("Server version.")),
                    ("commit", string("")),
                    ("database", string_enum("", &["ok"])),
                    (
                        "projections",
                        array(
                            open_object(
                                "One read model.",
                                vec![
                                    ("name", string("")),
                                    ("position", integer("Last global position applied.")),
                                    ("lagEvents", integer("Committed events not yet applied.")),
                                    (
                                        "lagSeconds",
                                        number(
                                            "Age of the oldest event not yet applied; 0 when caught up.",
                                        ),
                                    ),
                                ],
                                &["name", "position", "lagEvents", "lagSeconds"],
                            ),
                            "",
                        ),
                    ),
                    (
                        "customs",
                        open_object(
                            "The customs channel (docs/customs.md).",
                            vec![
                                ("status", string_enum("", &["ok", "degraded", "off"])),
                                ("problem", string("Why it is degraded.")),
                                ("inboxBacklog", integer("Receipt files waiting in inbox/.")),
                                ("inboxOldestSecs", integer("Age of the oldest of them.")),
                            ],
                            &["status", "inboxBacklog"],
                        ),
                    ),
                ],
                &["status", "database", "projections"],
            ),
        ),
    ]
}

fn envelope_schema() -> S {
    object(
        "Every JSON answer. HTTP status mirrors `code` for 200/400/401/403/404/405/409/413/415/429/5xx; \
         the business codes 10000-10006 travel with HTTP 200.",
        vec![
            (
                "code",
                integer(
                    "200 success; 400 field errors; 401 not signed in or token expired; 403 forbidden; \
                     404 not found (or not yours to see); 405 method not allowed; 409 conflict; \
                     413 payload too large; 415 unsupported media type; 207 too many requests (HTTP 429); \
                     500 internal error; 503 unavailable. Business codes (HTTP 200): 10000 login failure, \
                     10002 new user (set a password), 10003 password update needed, 10004 account transfer, \
                     10005 password mismatch (wrong old password), 10006 account locked.",
                ),
            ),
            (
                "message",
                string(
                    "Human-readable, in the language of `Accept-Language` (`zh` default, `en`).",
                ),
            ),
            (
                "data",
                any("The answer's payload; described per endpoint. `null` when there is none."),
            ),
            (
                "refreshed",
                boolean(
                    "true when the token was within 300 s of expiry: `accessToken` carries its replacement.",
                ),
            ),
            (
                "accessToken",
                opt_string("The renewed token when `refreshed`, else null."),
            ),
        ],
        &["code", "message", "data", "refreshed", "accessToken"],
    )
}

/// Server-owned fields of a declaration (never set by a request body).
fn server_fields() -> Vec<(&'static str, S)> {
    vec![
        ("id", uuid("Generated by the server on create.")),
        (
            "version",
            integer("Number of events in the declaration's stream; send it back in `If-Match`."),
        ),
        (
            "position",
            integer("Global position of the declaration's last event."),
        ),
        (
            "declarationType",
            string_enum("Type code: export OB OC OD, import IB IC ID.", TYPE_CODES),
        ),
        (
            "declarationClass",
            string_enum(
                "B personal items, C low-value goods, D formal declaration.",
                &["B", "C", "D"],
            ),
        ),
        ("shipmentType", integer_enum("0 import, 1 export.", &[0, 1])),
        ("status", integer_enum(STATUS_TEXT, STATUSES)),
        (
            "draftStatus",
            integer_enum(
                "1 when the form would pass submit's validation now.",
                &[0, 1],
            ),
        ),
        (
            "declarationStatus",
            opt_string(
                "Last customs receipt code: P released, R closed, E rejected, Z returned for change, Y failed.",
            ),
        ),
        ("customerId", uuid("The owning customer (tenant).")),
        ("username", string("The owning customer account.")),
        ("companyName", opt_string("")),
        (
            "createdAt",
            date_time("Time of the first event (ISO 8601, +08:00)."),
        ),
        ("updatedAt", date_time("Time of the last event.")),
        ("submittedAt", opt_date_time("")),
    ]
}

/// The editable fields of `events::declaration::DeclarationData` (docs/fields.md).
fn form_fields() -> Vec<(&'static str, S)> {
    let text = |d: &str| opt_string(d);
    let num = |d: &str| opt_number(d);
    vec![
        (
            "trackingNumber",
            text(
                "运单号 waybill / tracking number; required in every draft, at most 64 characters.",
            ),
        ),
        (
            "serviceType",
            text("服务类型 carrier service (table `service-types`)."),
        ),
        ("deliveryTime", text("时效 delivery time commitment.")),
        ("port", text("口岸 carrier port (e.g. PVG).")),
        ("slic", text("SLIC of the carrier facility.")),
        (
            "estimatedPickupTime",
            opt_date_time("预计揽收时间 estimated pickup time (ISO 8601 with offset)."),
        ),
        (
            "customMaster",
            text("申报地海关 declaring customs office (4 digits)."),
        ),
        (
            "ieCustoms",
            text("进出境海关 customs office of entry / exit clearance."),
        ),
        ("manualNo", text("备案号 record number.")),
        ("contractNo", text("合同协议号 contract number.")),
        ("ieDate", text("进出口日期 import / export date.")),
        (
            "declareDate",
            text("申报日期 declaration date; reference tables are judged on it."),
        ),
        (
            "consigneeScc",
            text("USCC of the domestic consignee / consignor."),
        ),
        (
            "consigneeCustomMaster",
            text("Its customs registration code."),
        ),
        (
            "consigneeInspectCode",
            text("Its inspection and quarantine code."),
        ),
        ("consigneeCompanyCn", text("Its name in Chinese.")),
        ("consigneeCompanyEn", text("Its name in English.")),
        ("consignorScc", text("Code of the overseas party.")),
        ("consignorCompanyEn", text("Name of the overseas party.")),
        (
            "ownerCompanyScc",
            text("USCC of the consumer / producer unit."),
        ),
        (
            "ownerCompanyCustomMaster",
            text("Its customs registration code."),
        ),
        ("ownerCompanyInspectCode", text("Its inspection code.")),
        ("ownerCompanyName", text("Its name.")),
        ("declareCompanyName", text("申报单位 declaring agent.")),
        ("declareCompanyScc", text("Its USCC.")),
        (
            "declareCompanyCustomMaster",
            text("Its customs registration code."),
        ),
        ("declareCompanyInspectCode", text("Its inspection code.")),
        (
            "trafficMode",
            text("运输方式 transport mode (table `transport-modes`)."),
        ),
        ("trafficName", text("运输工具名称 conveyance.")),
        ("voyageNo", text("航次号 voyage / flight number.")),
        ("billNo", text("提运单号 bill of lading number.")),
        (
            "supervisionMode",
            text("监管方式 supervision mode (table `supervision-modes`)."),
        ),
        (
            "cutMode",
            text("征免性质 levy nature (table `levy-types`)."),
        ),
        ("licenceNo", text("许可证号 licence number.")),
        (
            "tradeCountry",
            text("启运国／运抵国 country of departure / arrival (table `countries`)."),
        ),
        (
            "tradeCountryCode",
            text("贸易国别 trading country (table `countries`)."),
        ),
        (
            "distinatePort",
            text("指运港 port of destination (export)."),
        ),
        ("despPort", text("启运港 port of departure (import).")),
        (
            "tradeMode",
            text("贸易方式 trade mode (table `supervision-modes`)."),
        ),
        (
            "originCertificate",
            text(
                "原产地证书编号 certificate of origin: the estimate applies agreement rates with it.",
            ),
        ),
        (
            "tradeTerms",
            text(
                "成交方式 trade terms (table `trade-terms`: 1 CIF, 2 C&F, 3 FOB, 4 C&I, 7 EXW ...).",
            ),
        ),
        (
            "transpotationFeeType",
            text("运费标记 freight mark: 1 rate, 2 unit price, 3 total."),
        ),
        ("transpotationFeeValue", num("运费 freight value.")),
        ("transpotationFeeUnit", text("运费币制 freight currency.")),
        ("insuranceFeeType", text("保险费标记 insurance mark.")),
        ("insuranceFeeValue", num("保费 insurance value.")),
        ("insuranceFeeUnit", text("Insurance currency.")),
        ("otherFeeType", text("杂费标记 other charges mark.")),
        ("otherFeeValue", num("杂费 other charges value.")),
        ("otherFeeUnit", text("Other charges currency.")),
        ("packageQuantity", num("件数 number of packages.")),
        (
            "packageType",
            text("包装种类 packing type (table `packing-types`)."),
        ),
        ("grossWeight", num("毛重 gross weight, kg.")),
        (
            "netWeight",
            num("净重 net weight, kg; at most `grossWeight`."),
        ),
        ("containerCount", num("集装箱数 number of containers.")),
        (
            "goodsPlace",
            text("货物存放地点 where the goods are stored."),
        ),
        (
            "iePort",
            text("进出境关别 customs office of the port of entry / exit."),
        ),
        (
            "customType",
            text("报关单类型 entry type (table `customs-types`)."),
        ),
        ("mark", text("标记唛码 shipping marks.")),
        ("note", text("备注 remarks.")),
        ("otherItem", text("其他事项 other matters.")),
        ("specialRelationship", text("特殊关系确认: `0` or `1`.")),
        ("priceImpact", text("价格影响确认: `0` or `1`.")),
        (
            "paymentPrivilege",
            text("支付特许权使用费确认: `0` or `1`."),
        ),
        ("cusCiqNo", text("统一编号 single-window unified number.")),
        ("preEntryId", text("预录入编号 pre-entry number.")),
        ("entryId", text("海关编号 customs entry number.")),
        (
            "preDecLicense",
            text("预申报许可编号 pre-declaration licence number."),
        ),
        (
            "operator",
            text("操作员 carrier operator who prepared the form."),
        ),
        ("shipperUpsId", text("Shipper's carrier id.")),
        ("shipperAccount", text("Shipper's account number.")),
        ("shipperName", text("发件人 shipper's name.")),
        ("shipperCompany", text("")),
        ("shipperAddress", text("")),
        ("shipperPhone", text("")),
        (
            "shipperIdNumber",
            text("发件人身份证号 sender's personal ID number."),
        ),
        ("recipientUpsId", text("Recipient's carrier id.")),
        ("recipientAccount", text("Recipient's account number.")),
        ("recipientName", text("收件人 recipient's name.")),
        (
            "recipientChineseName",
            text("收件人中文名 recipient's name in Chinese."),
        ),
        ("recipientAddress", text("收件人地址 recipient's address.")),
        ("recipientCompany", text("")),
        ("recipientPhone", text("")),
        (
            "recipientIdNumber",
            text("收件人身份证号 consignee's personal ID number."),
        ),
        ("packageWeight", num("包裹重量 parcel weight, kg.")),
        ("packageVolume", num("包裹体积 parcel volume.")),
        (
            "packageDeclaredValue",
            num("申报价值 declared value of the parcel."),
        ),
        ("packageNumber", num("件数 number of parcels.")),
        ("packageGrossWeight", num("毛重 gross weight, kg.")),
        ("packageNetWeight", num("净重 net weight, kg.")),
        (
            "currencyCode",
            text("币制 currency of the form (default CNY; table `currencies`)."),
        ),
        (
            "products",
            array(r("Product"), "Product lines of the shipment form."),
        ),
        (
            "altBroker",
            text("其他报关行 alternative broker chosen from a list."),
        ),
        ("altBrokerInput", text("Alternative broker typed in.")),
        (
            "declareType",
            array(
                string(""),
                "申报类型 declaration-type flags of the shipment form.",
            ),
        ),
        ("businessUnit", text("经营单位 business unit.")),
        ("businessUnitScc", text("Its USCC.")),
        ("businessUnitCode", text("Its customs registration code.")),
        ("portCode", text("口岸代码 port code of the shipment form.")),
        (
            "declarationGoodsInfo",
            array(r("GoodsLine"), "商品项 goods lines (at most 1,000)."),
        ),
    ]
}

fn declaration_form() -> S {
    open_object(
        "The editable fields of a declaration (docs/fields.md), flat, with the spec's spellings. \
         Every field is optional in a draft; submit runs the full rules of the class.",
        form_fields(),
        &[],
    )
}

fn declaration() -> S {
    let mut fields = server_fields();
    let server: Vec<&str> = fields.iter().map(|(n, _)| *n).collect();
    fields.extend(
        form_fields()
            .into_iter()
            .filter(|(n, _)| !server.contains(n)),
    );
    open_object(
        "One declaration in full: the server-owned fields and every field of the form \
         (docs/fields.md), flat.",
        fields,
        &[
            "id",
            "version",
            "declarationType",
            "declarationClass",
            "shipmentType",
            "status",
            "customerId",
            "username",
            "createdAt",
            "updatedAt",
            "declarationGoodsInfo",
        ],
    )
}

fn goods_line() -> S {
    let text = |d: &str| opt_string(d);
    let num = |d: &str| opt_number(d);
    object(
        "商品项: one goods line.",
        vec![
            ("goodsNo", num("项号 line number.")),
            ("goodsCode", text("商品编号 HS code, 10 digits.")),
            ("goodsName", text("商品名称 goods name.")),
            ("goodsQuantity", num("成交数量 declared quantity.")),
            ("goodsUnit", text("成交计量单位 unit (table `units`).")),
            ("unitPrice", num("单价 unit price.")),
            ("totalPrice", num("总价 line total.")),
            (
                "currency",
                text("币制 (falls back to `currencyCode`, then CNY)."),
            ),
            ("originCountry", text("原产国 country of origin, alpha-3.")),
            (
                "destinationCountry",
                text("最终目的国 final destination country, alpha-3."),
            ),
            (
                "districtCode",
                text("境内目的地 / 境内货源地 district (table `districts`)."),
            ),
            (
                "dutyMode",
                text("征减免税方式 levy method (table `levy-methods`)."),
            ),
            ("exgNo", text("成品项号 record item number.")),
            ("exgVersion", text("版本号 record item version.")),
            (
                "quantityOne",
                num("法定第一数量 quantity in the first legal unit."),
            ),
            ("unitOne", text("法定第一计量单位 first legal unit.")),
            (
                "quantityTwo",
                num("法定第二数量 quantity in the second legal unit."),
            ),
            ("unitTwo", text("法定第二计量单位 second legal unit.")),
            (
                "specification",
                text("规格型号 declaration elements, pipe-separated."),
            ),
            (
                "trackingNumber",
                text("The line's waybill (split shipments)."),
            ),
            ("originCode", text("原产地区代码 origin region code.")),
            (
                "contrItem",
                text("备案序号 item number in the contract / record."),
            ),
            (
                "ciqName",
                text("检验检疫名称 goods name for inspection and quarantine."),
            ),
        ],
        &[],
    )
}

fn product() -> S {
    object(
        "A product line of the shipment form.",
        vec![
            ("productDescription", opt_string("中文品名")),
            ("productDescriptionEnglish", opt_string("英文品名")),
            (
                "htsCode",
                opt_string("The shipper's tariff code (not checked)."),
            ),
        ],
        &[],
    )
}

fn error(
    description: &str,
    code: i64,
    data: S,
    example_message: &str,
    example_data: serde_json::Value,
) -> utoipa::openapi::Response {
    ResponseBuilder::new()
        .description(description)
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(envelope(data)))
                .example(Some(json!({
                    "code": code,
                    "message": example_message,
                    "data": example_data,
                    "refreshed": false,
                    "accessToken": null,
                })))
                .build(),
        )
        .build()
}

fn responses() -> Vec<(&'static str, utoipa::openapi::Response)> {
    let none = || null("");
    let mut too_many = error(
        "Too many requests (envelope code 207); `Retry-After` and `data.retryAfter` say when to \
         try again.",
        207,
        object(
            "",
            vec![(
                "retryAfter",
                integer("Seconds to wait, as in `Retry-After`."),
            )],
            &["retryAfter"],
        ),
        "操作过于频繁，请稍后再试",
        json!({"retryAfter": 60}),
    );
    too_many.headers.insert(
        "Retry-After".into(),
        HeaderBuilder::new()
            .schema(integer(""))
            .description(Some("Seconds to wait."))
            .build(),
    );
    vec![
        (
            "BadRequest",
            error(
                "Field errors (`data` lists them), or a body or parameter that does not parse (`data` null).",
                400,
                one_of("", vec![array(r("FieldError"), ""), none()]),
                "请求参数错误",
                json!([{"field": "declarationGoodsInfo[2].goodsCode", "message": "商品编号应为10位数字"}]),
            ),
        ),
        (
            "Unauthorized",
            error(
                "No token, or an expired or revoked one: sign in again.",
                401,
                none(),
                "您还未登录或登录已超时，请先登录！",
                json!(null),
            ),
        ),
        (
            "Forbidden",
            error(
                "The caller's role may not do this.",
                403,
                none(),
                "没有权限执行此操作",
                json!(null),
            ),
        ),
        (
            "NotFound",
            error(
                "Missing, or not the caller's to see (the same answer).",
                404,
                none(),
                "资源不存在",
                json!(null),
            ),
        ),
        (
            "MethodNotAllowed",
            error(
                "The path exists, not with this method.",
                405,
                none(),
                "请求方法不允许",
                json!(null),
            ),
        ),
        (
            "Conflict",
            error(
                "`VERSION_CONFLICT`: `If-Match` is stale, read again and retry. `ILLEGAL_TRANSITION`: \
                 the move is not allowed from the current status. `IDEMPOTENCY_KEY_REUSED`: the key was \
                 used with another body. `USERNAME_TAKEN`: the username belongs to another account. \
                 `UPS_ID_TAKEN`: the UPS id is bound to another customer. `DECLARATIONS_IN_PROGRESS`: \
                 the customer still has declarations in progress. `VERIFICATION_RUNNING`: an audit \
                 chain verification is running already. `CONFLICT`: another conflict.",
                409,
                object(
                    "",
                    vec![(
                        "reason",
                        string_enum(
                            "",
                            &[
                                "VERSION_CONFLICT",
                                "ILLEGAL_TRANSITION",
                                "IDEMPOTENCY_KEY_REUSED",
                                "USERNAME_TAKEN",
                                "UPS_ID_TAKEN",
                                "DECLARATIONS_IN_PROGRESS",
                                "VERIFICATION_RUNNING",
                                "CHANNEL_OFF",
                                "EXISTS",
                                "CONFLICT",
                            ],
                        ),
                    )],
                    &["reason"],
                ),
                "当前状态 3（已完成） 不能变更为 1（未处理）",
                json!({"reason": "ILLEGAL_TRANSITION"}),
            ),
        ),
        (
            "PayloadTooLarge",
            error(
                "The body is over the limit (4 MiB).",
                413,
                none(),
                "请求体过大",
                json!(null),
            ),
        ),
        (
            "UnsupportedMediaType",
            error(
                "The body's content type is not accepted.",
                415,
                none(),
                "不支持的媒体类型",
                json!(null),
            ),
        ),
        ("TooManyRequests", too_many),
        (
            "InternalError",
            error(
                "Something failed on the server.",
                500,
                none(),
                "服务器内部错误",
                json!(null),
            ),
        ),
        (
            "Unavailable",
            error(
                "The database is unavailable, or the request took longer than the server allows \
                 (60 s).",
                503,
                none(),
                "数据库不可用",
                json!(null),
            ),
        ),
    ]
}

/// The body of `POST /api/v1/declarations`: the type (and for staff the customer) with the
/// form (its `#[serde(flatten)]` form is not a derived schema).
fn create_declaration() -> S {
    all_of(
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
    )
}

/// The `data` of `POST /auth/login`: the token, or what a business code carries.
fn login_answer() -> S {
    one_of(
        "",
        vec![
            string("The bearer token (code 200)."),
            object(
                "Code 10002.",
                vec![("tempToken", string(""))],
                &["tempToken"],
            ),
            object(
                "Code 10004.",
                vec![("transferAuthorization", any(""))],
                &["transferAuthorization"],
            ),
            null("Codes 10000, 10003, 10006."),
        ],
    )
}
