//! `clearway seed`: reference tables (always) and demo data (development mode), all loaded by
//! issuing commands. Running it twice changes nothing the second time.

mod bootstrap;
mod hs;
#[cfg(test)]
mod tests;

pub use bootstrap::{
    BOOTSTRAP_PASSWORD_FILE, Bootstrap, bootstrap_first_admin, bootstrap_from_env,
};
pub use hs::seed_hs_nomenclature;

use anyhow::Context;
use api::{Actor, Role};
use chrono::{NaiveDate, Utc};
use command::account::Register;
use command::declaration::{CustomerRef, DeclarationCommand, DeclarationState};
use command::handler::{Command, CommandError, execute};
use command::http::CommandState;
use command::{Aggregate, Ctx, DomainError};
use events::customer::CustomerProfile;
use events::declaration::{DeclarationData, GoodsLine, TypeCode};
use rust_decimal::Decimal;
use std::path::Path;
use uuid::Uuid;

pub const DEMO_PASSWORD: &str = "Demopass2026";
/// Reference tables are in force from this date, so older declarations replay under them too.
pub const REFERENCE_EFFECTIVE_FROM: (i32, u32, u32) = (2018, 1, 1);

const NS: Uuid = Uuid::from_u128(0x0c1e_a7a4_0000_4000_8000_0000_0000_d3e0);

fn demo_id(name: &str) -> Uuid {
    Uuid::new_v5(&NS, name.as_bytes())
}

pub struct DemoCompany {
    pub username: &'static str,
    pub company: &'static str,
    pub city: &'static str,
    pub port: &'static str,
    pub slic: &'static str,
    pub ups_id: &'static str,
    pub email: &'static str,
}

pub const COMPANIES: [DemoCompany; 2] = [
    DemoCompany {
        username: "acme",
        company: "上海艾克美贸易有限公司 (ACME Trading)",
        city: "Shanghai",
        port: "PVG",
        slic: "2011",
        ups_id: "ACME-EC-0001",
        email: "acme@example.com",
    },
    DemoCompany {
        username: "globex",
        company: "郑州环球进出口有限公司 (Globex)",
        city: "Zhengzhou",
        port: "CGO",
        slic: "4511",
        ups_id: "GLOBEX-EC-0002",
        email: "globex@example.com",
    },
];

pub fn customer_id(username: &str) -> Uuid {
    demo_id(&format!("customer:{username}"))
}

/// Every reference table, the tariff among them (`clearway seed`).
pub async fn seed_reference(state: &CommandState, dir: &Path) -> anyhow::Result<()> {
    seed_reference_with(state, dir, true).await
}

/// The reference tables, with or without the tariff (12,030 lines, some 10 MB of event:
/// the API tests load it only where they need it, see tests/api/helpers.rs).
pub async fn seed_reference_with(
    state: &CommandState,
    dir: &Path,
    tariff: bool,
) -> anyhow::Result<()> {
    let (y, m, d) = REFERENCE_EFFECTIVE_FROM;
    let from = NaiveDate::from_ymd_opt(y, m, d).context("reference date")?;
    let metadata = command_metadata(&Actor::system(), None);
    let report = command::reference::seed_all(&state.store, dir, from, &metadata)
        .await
        .with_context(|| format!("seeding reference tables from {}", dir.display()))?;
    println!(
        "reference tables: {} imported, {} unchanged",
        report.imported.len(),
        report.unchanged.len()
    );
    if tariff {
        seed_tariff(state, dir, &metadata).await?;
    }
    state.reference.reload(&state.store).await?;
    seed_roles(state).await
}

/// The tariff's seed file, beside the reference tables' folder (`seeds/cn_tariff_2026.csv`).
pub const TARIFF_FILE: &str = "cn_tariff_2026.csv";
/// The first day of the seeded tariff edition (the 2026 tariff).
pub const TARIFF_EFFECTIVE_FROM: (i32, u32, u32) = (2026, 1, 1);

/// Loads the 2026 tariff (`<dir>/../cn_tariff_2026.csv`) as the `tariff` table's version in
/// force from 2026-01-01, unless that version already holds the file's content.
async fn seed_tariff(
    state: &CommandState,
    dir: &Path,
    metadata: &events::Metadata,
) -> anyhow::Result<()> {
    let (y, m, d) = TARIFF_EFFECTIVE_FROM;
    let from = NaiveDate::from_ymd_opt(y, m, d).context("tariff date")?;
    let path = dir.parent().unwrap_or(dir).join(TARIFF_FILE);
    let appended = command::reference::seed_file(
        &state.store,
        events::reference::TARIFF,
        &path,
        from,
        metadata,
    )
    .await
    .with_context(|| format!("seeding the tariff from {}", path.display()))?;
    println!(
        "tariff {from}: {}",
        if appended.is_some() {
            "imported"
        } else {
            "unchanged"
        }
    );
    Ok(())
}

/// The four roles with the documented default permission matrix (idempotent).
pub async fn seed_roles(state: &CommandState) -> anyhow::Result<()> {
    command::accounts::seed_roles(state, &Actor::system())
        .await
        .map_err(|e| anyhow::anyhow!("seeding roles: {e:?}"))
}

fn command_metadata(actor: &Actor, customer_id: Option<Uuid>) -> events::Metadata {
    events::Metadata {
        actor_id: Some(actor.id),
        actor_role: Some(actor.role.as_str().into()),
        actor_name: Some(actor.username.clone()),
        customer_id,
        correlation_id: Uuid::now_v7(),
        causation_id: None,
        request_id: None,
        command_id: Uuid::now_v7(),
    }
}

fn ignore_existing(
    result: Result<command::handler::CommandAnswer, CommandError>,
) -> anyhow::Result<bool> {
    match result {
        Ok(_) => Ok(true),
        Err(CommandError::Domain(DomainError::Conflict(_)))
        | Err(CommandError::VersionConflict) => Ok(false),
        Err(e) => Err(anyhow::anyhow!("{e:?}")),
    }
}

async fn account(state: &CommandState, register: Register) -> anyhow::Result<()> {
    let system = Actor::system();
    let username = register.username.clone();
    if ignore_existing(command::accounts::register_account(state, &system, register).await)? {
        let id = events::account::account_id(&username);
        command::accounts::set_password(state, &system, id, DEMO_PASSWORD, "initial")
            .await
            .map_err(|e| anyhow::anyhow!("setting the password of {username}: {e:?}"))?;
    }
    Ok(())
}

async fn bind_easy_clear(
    state: &CommandState,
    customer: Uuid,
    by: Uuid,
    ups_id: &str,
    account_no: &str,
) -> anyhow::Result<()> {
    let metadata = command_metadata(&Actor::system(), Some(customer));
    execute(
        Command::<command::customer::CustomerState>::on(&state.store, customer, metadata.clone()),
        |s, _| {
            let bind = command::customer::CustomerCommand::BindEasyClear {
                account_id: by,
                ups_id: ups_id.to_string(),
                account_no: Some(account_no.to_string()),
                is_from_ups: true,
            };
            s.decide(bind, &state.system_ctx())
        },
    )
    .await
    .map(|_| ())
    .map_err(|e| anyhow::anyhow!("binding the Easy-clear ID of {customer}: {e:?}"))
}

fn staff(username: &str, name: &str, role: Role, staff_id: &str) -> Register {
    Register {
        username: username.into(),
        display_name: name.into(),
        email: Some(format!("{username}@clearway.example.com")),
        roles: vec![role],
        customer_id: None,
        staff_id: Some(staff_id.into()),
        must_set_password: false,
    }
}

/// Production: the first super admin, with a one-time initial password (`initial`, or a
/// random one). Its first sign-in answers 10002 and a new password must be set
/// (`/pass-reset`) before anything else. Answers the initial password when the account was
/// created now, `None` when it already existed. The caller keeps the password out of any
/// output ([`bootstrap_first_admin`] writes it to an owner-only file).
pub async fn seed_first_admin(
    state: &CommandState,
    username: &str,
    initial: Option<String>,
) -> anyhow::Result<Option<String>> {
    let mut register = staff(username, "Super Admin", Role::SuperAdmin, "S0001");
    register.must_set_password = true;
    let system = Actor::system();
    if !ignore_existing(command::accounts::register_account(state, &system, register).await)? {
        return Ok(None);
    }
    let password = initial.unwrap_or_else(command::account::password::random_password);
    let id = events::account::account_id(username);
    command::accounts::set_password(state, &system, id, &password, "initial")
        .await
        .map_err(|e| anyhow::anyhow!("setting the initial password of {username}: {e:?}"))?;
    Ok(Some(password))
}

/// Demo customers, accounts and a few declarations in several states.
pub async fn seed_demo(state: &CommandState) -> anyhow::Result<()> {
    let system = Actor::system();
    for (i, c) in COMPANIES.iter().enumerate() {
        // The full archive profile (customer archive): postal code, USCC, declaration types.
        let (postal, scc, types): (&str, &str, &[&str]) = match i {
            0 => ("200120", "91440300MA5FHK4H1F", &[]),
            _ => ("450000", "91440300MA5FAQKF5W", &["OC", "IC", "OD", "ID"]),
        };
        let profile = CustomerProfile {
            company_name: c.company.into(),
            city: Some(c.city.into()),
            port_code: Some(c.port.into()),
            slic_code: Some(c.slic.into()),
            postal_code: Some(postal.into()),
            ups_account: Some(format!("{}-ACC", c.username.to_uppercase())),
            ups_id: Some(c.ups_id.into()),
            account_no: Some(format!("{}-0001", c.username.to_uppercase())),
            email: Some(c.email.into()),
            scc: Some(scc.into()),
            declaration_types: types.iter().map(|t| t.to_string()).collect(),
        };
        let id = customer_id(c.username);
        ignore_existing(
            command::accounts::register_customer(state, &system, id, c.username, profile).await,
        )?;
        // The demo customers have bound their Easy-clear ID (so they are not "locked").
        let login = events::account::account_id(c.username);
        let account_no = format!("{}-0001", c.username.to_uppercase());
        bind_easy_clear(state, id, login, c.ups_id, &account_no).await?;
        account(
            state,
            Register {
                username: c.username.into(),
                display_name: c.company.into(),
                email: Some(c.email.into()),
                roles: vec![Role::Customer],
                customer_id: Some(id),
                staff_id: None,
                must_set_password: false,
            },
        )
        .await?;
    }
    account(
        state,
        staff("operator", "Olivia Operator", Role::Operator, "S1001"),
    )
    .await?;
    account(state, staff("admin", "Adam Admin", Role::Admin, "S0100")).await?;
    account(
        state,
        staff("superadmin", "Sam Superadmin", Role::SuperAdmin, "S0001"),
    )
    .await?;
    account(
        state,
        staff("auditor", "Aude Auditor", Role::Compliance, "S0200"),
    )
    .await?;
    seed_demo_ports(state).await?;
    seed_archive_customers(state).await?;
    for (i, c) in COMPANIES.iter().enumerate() {
        demo_declarations(state, c, i).await?;
    }
    Ok(())
}

/// The demo companies' trade companies and product library (`clearway seed` in development
/// mode loads them after [`seed_demo`]; the API tests start without them).
pub async fn seed_demo_master_data(state: &CommandState) -> anyhow::Result<()> {
    for c in COMPANIES.iter() {
        demo_master_data(state, c).await?;
    }
    Ok(())
}

/// Each demo company's trade companies and product library, so that the master data pages,
/// the goods lines' product picker and the uploads have something to offer.
async fn demo_master_data(state: &CommandState, c: &DemoCompany) -> anyhow::Result<()> {
    use command::product::{ProductCommand, ProductState};
    use command::trade_company::{TradeCompanyCommand, TradeCompanyState};
    use events::product::ProductFields;
    use events::trade_company::TradeCompanyFields;

    let customer = customer_id(c.username);
    let owner = Actor {
        id: events::account::account_id(c.username),
        username: c.username.into(),
        display_name: c.company.into(),
        role: Role::Customer,
        customer_id: Some(customer),
        session_id: Uuid::nil(),
    };
    let metadata = command_metadata(&owner, Some(customer));
    let companies = [
        (
            "上海示范进出口有限公司",
            "Shanghai Demo Import & Export Co., Ltd.",
            "91440300MA5FHK4H1F",
            "3122260001",
            "3100600001",
            "上海市浦东新区张杨路 500 号",
        ),
        (
            "郑州示范国际贸易有限公司",
            "Zhengzhou Demo International Trading Co., Ltd.",
            "91440300MA5FAQKF5W",
            "4101960002",
            "4100600002",
            "郑州市航空港区新港大道 1 号",
        ),
    ];
    for (name_cn, name_en, uscc, customs, inspection, address) in companies {
        let id = demo_id(&format!("{}/trade-company/{uscc}", c.username));
        let cmd = TradeCompanyCommand::Register {
            customer_id: customer,
            fields: TradeCompanyFields {
                company_name_cn: name_cn.into(),
                company_name_en: Some(name_en.into()),
                uscc: uscc.into(),
                customs_code: Some(customs.into()),
                inspection_code: Some(inspection.into()),
                address: Some(address.into()),
            },
        };
        ignore_existing(
            execute(
                Command::<TradeCompanyState>::create(&state.store, id, metadata.clone()),
                |s, _| s.decide(cmd.clone(), &state.system_ctx()),
            )
            .await,
        )
        .with_context(|| format!("demo trade company {uscc} of {}", c.username))?;
    }
    let products = [
        (
            "智能手机",
            "Smartphone",
            "8517130000",
            "4|3|品牌:无|型号:X1",
            "011",
            "CHN",
            "199.00",
        ),
        (
            "棉制针织T恤",
            "Cotton knitted T-shirt",
            "6109100000",
            "1|0|针织|100%棉|男式",
            "011",
            "CHN",
            "6.50",
        ),
        (
            "纺织面手提包",
            "Handbag, textile outer surface",
            "4202220000",
            "0|0|手提包|棉布|无品牌",
            "011",
            "CHN",
            "12.00",
        ),
        (
            "塑料玩具车",
            "Plastic toy car",
            "9503008900",
            "0|0|玩具车|塑料|无品牌",
            "011",
            "CHN",
            "3.20",
        ),
    ];
    for (desc_cn, desc_en, hs, elements, unit, origin, price) in products {
        let id = demo_id(&format!("{}/product/{hs}", c.username));
        let cmd = ProductCommand::Register {
            customer_id: customer,
            fields: ProductFields {
                description_cn: desc_cn.into(),
                description_en: Some(desc_en.into()),
                hs_code: hs.into(),
                declaration_elements: Some(elements.into()),
                declared_unit: unit.into(),
                legal_unit_one: None,
                legal_unit_two: None,
                origin_country: Some(origin.into()),
                unit_price: Some(price.parse::<Decimal>()?),
                currency: Some("USD".into()),
            },
        };
        ignore_existing(
            execute(
                Command::<ProductState>::create(&state.store, id, metadata.clone()),
                |s, _| s.decide(cmd.clone(), &state.system_ctx()),
            )
            .await,
        )
        .with_context(|| format!("demo product {hs} of {}", c.username))?;
    }
    Ok(())
}

/// A class C export that passes validation.
pub fn demo_c_export(tracking: &str, port: &str, slic: &str) -> DeclarationData {
    let d = |s: &str| s.parse::<Decimal>().ok();
    DeclarationData {
        tracking_number: Some(tracking.into()),
        service_type: Some("065".into()),
        port: Some(port.into()),
        slic: Some(slic.into()),
        estimated_pickup_time: Some(Utc::now().fixed_offset()),
        shipper_name: Some("Li Lei".into()),
        shipper_company: Some("ACME Trading".into()),
        shipper_address: Some("88 Century Avenue, Pudong, Shanghai".into()),
        shipper_phone: Some("13800138000".into()),
        recipient_name: Some("John Smith".into()),
        recipient_company: Some("Smith Retail LLC".into()),
        recipient_address: Some("1 Main Street, Louisville, KY, USA".into()),
        recipient_phone: Some("+1 502 555 0100".into()),
        trade_country: Some("USA".into()),
        traffic_mode: Some("5".into()),
        package_quantity: d("2"),
        package_type: Some("22".into()),
        gross_weight: d("3.5"),
        net_weight: d("3.0"),
        currency_code: Some("USD".into()),
        declaration_goods_info: vec![
            GoodsLine {
                goods_no: d("1"),
                goods_code: Some("6109100000".into()),
                goods_name: Some("棉制针织T恤衫".into()),
                goods_quantity: d("20"),
                goods_unit: Some("011".into()),
                unit_price: d("8.5"),
                total_price: d("170"),
                currency: Some("USD".into()),
                origin_country: Some("CHN".into()),
                destination_country: Some("USA".into()),
                duty_mode: Some("1".into()),
                quantity_one: d("3.0"),
                unit_one: Some("035".into()),
                specification: Some("0|0|针织|棉100%|无品牌".into()),
                ..Default::default()
            },
            GoodsLine {
                goods_no: d("2"),
                goods_code: Some("4202220000".into()),
                goods_name: Some("棉布手提包".into()),
                goods_quantity: d("5"),
                goods_unit: Some("011".into()),
                unit_price: d("12"),
                total_price: d("60"),
                currency: Some("USD".into()),
                origin_country: Some("CHN".into()),
                destination_country: Some("USA".into()),
                duty_mode: Some("1".into()),
                quantity_one: d("5"),
                unit_one: Some("011".into()),
                specification: Some("0|0|手提包|棉布|无品牌".into()),
                ..Default::default()
            },
        ],
        ..Default::default()
    }
}

async fn run_declaration(
    state: &CommandState,
    actor: &Actor,
    id: Uuid,
    owner: Uuid,
    command: DeclarationCommand,
) -> anyhow::Result<()> {
    let reference = state.reference.current();
    let metadata = command_metadata(actor, Some(owner));
    let action = command.action();
    execute(
        Command::<DeclarationState>::on(&state.store, id, metadata.clone()),
        |s, _| {
            let ctx = Ctx::new(actor, reference.clone());
            s.decide(command.clone(), &ctx)
        },
    )
    .await
    .map(|_| ())
    .map_err(|e| anyhow::anyhow!("demo declaration {id}: {action}: {e:?}"))
}

async fn demo_declarations(
    state: &CommandState,
    c: &DemoCompany,
    index: usize,
) -> anyhow::Result<()> {
    let customer = customer_id(c.username);
    let owner = Actor {
        id: events::account::account_id(c.username),
        username: c.username.into(),
        display_name: c.company.into(),
        role: Role::Customer,
        customer_id: Some(customer),
        session_id: Uuid::nil(),
    };
    let operator = Actor {
        role: Role::Operator,
        username: "operator".into(),
        display_name: "Olivia Operator".into(),
        id: events::account::account_id("operator"),
        customer_id: None,
        session_id: Uuid::nil(),
    };
    // (tracking suffix, steps after creation)
    let plans: [(&str, &[&str]); 4] = [
        ("01", &[]),
        ("02", &["submit"]),
        ("03", &["submit", "review"]),
        ("04", &["submit", "review", "complete"]),
    ];
    for (suffix, steps) in plans {
        // A valid 1Z number: index and plan first, so a long user name cannot make two alike.
        let tracking = command::rules::tracking::make_ups(&format!(
            "{:02}{suffix}DEMO{}",
            index,
            c.username.to_uppercase()
        ));
        let id = demo_id(&format!("declaration:{tracking}"));
        let (existing, _) = command::handler::load::<DeclarationState>(&state.store, id).await?;
        if existing.exists() {
            continue;
        }
        let create = DeclarationCommand::Create {
            id,
            declaration_type: "OC".parse::<TypeCode>().map_err(|e| anyhow::anyhow!(e))?,
            customer: CustomerRef {
                customer_id: customer,
                username: c.username.into(),
                company_name: Some(c.company.into()),
            },
            data: demo_c_export(&tracking, c.port, c.slic),
        };
        run_declaration(state, &owner, id, customer, create).await?;
        for step in steps {
            let (actor, command) = match *step {
                "submit" => (&owner, DeclarationCommand::Submit),
                "review" => (&operator, DeclarationCommand::Review),
                _ => (
                    &operator,
                    DeclarationCommand::Complete {
                        receipt_code: Some("P".into()),
                    },
                ),
            };
            run_declaration(state, actor, id, customer, command).await?;
        }
    }
    Ok(())
}

/// Demo ports (development only: ports are operational data staff maintain): code, name,
/// English name, declaration SLIC, facilities (name, SLIC). The demo customers' `slic` is a
/// facility of their port.
/// (code, name, English name, declaration SLIC, facilities: (name, SLIC)).
pub type DemoPort = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

pub const DEMO_PORTS: [DemoPort; 4] = [
    (
        "PVG",
        "上海浦东",
        "Shanghai Pudong",
        "2001",
        &[
            ("UPS Shanghai Pudong International Air Hub", "2011"),
            ("UPS Shanghai Waigaoqiao Operations Center", "2012"),
        ],
    ),
    (
        "CGO",
        "郑州新郑",
        "Zhengzhou Xinzheng",
        "4501",
        &[("UPS Zhengzhou Airport Economy Zone Gateway", "4511")],
    ),
    (
        "SZX",
        "深圳宝安",
        "Shenzhen Bao'an",
        "5181",
        &[("UPS Shenzhen Bao'an Air Hub", "5182")],
    ),
    (
        "PEK",
        "北京首都",
        "Beijing Capital",
        "1001",
        &[("UPS Beijing Shunyi Operations Center", "1011")],
    ),
];

/// Register the demo ports and their facilities through the port commands (a port or
/// facility that exists already is left alone).
pub async fn seed_demo_ports(state: &CommandState) -> anyhow::Result<()> {
    use command::port::{PortCommand, PortState};
    let metadata = command_metadata(&Actor::system(), None);
    for (code, name, name_en, slic, facilities) in DEMO_PORTS {
        let id = events::port::port_id(code);
        let register = PortCommand::Register {
            port_code: code.into(),
            port_name: name.into(),
            port_name_en: Some(name_en.into()),
            declaration_slic: slic.into(),
        };
        ignore_existing(
            execute(
                Command::<PortState>::on(&state.store, id, metadata.clone()),
                |s, _| s.decide(register.clone(), &state.system_ctx()),
            )
            .await,
        )?;
        for (facility, facility_slic) in facilities {
            let add = PortCommand::AddSlic {
                slic_id: demo_id(&format!("slic:{code}:{facility_slic}")),
                ups_facility_name: (*facility).into(),
                ups_facility_slic: (*facility_slic).into(),
            };
            ignore_existing(
                execute(
                    Command::<PortState>::on(&state.store, id, metadata.clone()),
                    |s, _| s.decide(add.clone(), &state.system_ctx()),
                )
                .await,
            )?;
        }
    }
    Ok(())
}

/// username, company, city, port, SLIC, postal code, Easy-clear ID, declaration types.
type ArchiveCustomer = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static [&'static str],
);

/// Demo customers in the archive that have no login yet (development only).
pub const ARCHIVE_CUSTOMERS: [ArchiveCustomer; 3] = [
    (
        "stark",
        "深圳斯塔克科技有限公司 (Stark)",
        "Shenzhen",
        "SZX",
        "5182",
        "518000",
        "STARK-EC-0003",
        &["OB", "IB"],
    ),
    (
        "umbrella",
        "北京安布雷拉医药有限公司 (Umbrella)",
        "Beijing",
        "PEK",
        "1011",
        "100000",
        "UMBRELLA-EC-0004",
        &[],
    ),
    (
        "hooli",
        "上海呼利网络有限公司 (Hooli)",
        "Shanghai",
        "PVG",
        "2012",
        "200000",
        "HOOLI-EC-0005",
        &["OC"],
    ),
];

/// Register the archive-only demo customers (a customer that exists already is left alone).
pub async fn seed_archive_customers(state: &CommandState) -> anyhow::Result<()> {
    let system = Actor::system();
    for (username, company, city, port, slic, postal, ups_id, types) in ARCHIVE_CUSTOMERS {
        let profile = CustomerProfile {
            company_name: company.into(),
            city: Some(city.into()),
            port_code: Some(port.into()),
            slic_code: Some(slic.into()),
            postal_code: Some(postal.into()),
            ups_account: Some(format!("{}-ACC", username.to_uppercase())),
            ups_id: Some(ups_id.into()),
            account_no: Some(format!("{}-0001", username.to_uppercase())),
            email: Some(format!("ops@{username}.example.com")),
            scc: None,
            declaration_types: types.iter().map(|t| t.to_string()).collect(),
        };
        ignore_existing(
            command::accounts::register_customer(
                state,
                &system,
                customer_id(username),
                username,
                profile,
            )
            .await,
        )?;
    }
    Ok(())
}
