//! The `Account` aggregate (a person who signs in) and the `Customer` aggregate (a trading
//! company). This slice covers registration and passwords; the identity issue adds the rest.

pub mod password;

use api::Role;
use events::account::{AccountEvent, PasswordSet, Registered, RoleGrant};
use events::customer::{CustomerEvent, CustomerProfile};
use uuid::Uuid;

use crate::aggregate::{Aggregate, DomainError, Violation};

#[derive(Debug, Default, Clone)]
pub struct AccountState {
    pub registered: Option<Registered>,
    pub has_password: bool,
}

impl AccountState {
    /// The first role by `sortNo` is the account's role.
    pub fn role(&self) -> Option<Role> {
        let registered = self.registered.as_ref()?;
        let mut grants: Vec<&RoleGrant> = registered.roles.iter().collect();
        grants.sort_by_key(|g| g.sort_no);
        grants.iter().find_map(|g| Role::parse(&g.role_code))
    }
}

impl Aggregate for AccountState {
    type Event = AccountEvent;
    const STREAM_TYPE: &'static str = events::account::STREAM_TYPE;

    fn evolve(&mut self, event: &AccountEvent) {
        match event {
            AccountEvent::Registered(r) => self.registered = Some(r.clone()),
            AccountEvent::PasswordSet(_) => self.has_password = true,
        }
    }
}

pub struct Register {
    pub username: String,
    pub display_name: String,
    pub email: Option<String>,
    pub roles: Vec<Role>,
    pub customer_id: Option<Uuid>,
    pub staff_id: Option<String>,
    pub must_set_password: bool,
}

fn username_violations(username: &str) -> Vec<Violation> {
    let ok_chars = username
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '@'));
    if username.is_empty() {
        vec![Violation::new(
            "username",
            "required",
            "用户名不能为空",
            "username cannot be empty",
        )]
    } else if username.len() > 64 || !ok_chars {
        vec![Violation::new(
            "username",
            "format",
            "用户名只能包含字母、数字和 . _ - @，最多 64 个字符",
            "username may contain letters, digits and . _ - @, at most 64 characters",
        )]
    } else {
        Vec::new()
    }
}

pub fn decide_register(
    state: &AccountState,
    cmd: Register,
) -> Result<Vec<AccountEvent>, DomainError> {
    if state.registered.is_some() {
        return Err(DomainError::Conflict(format!(
            "account {} already exists",
            cmd.username
        )));
    }
    let mut violations = username_violations(&cmd.username);
    if cmd.roles.is_empty() {
        violations.push(Violation::new(
            "roles",
            "required",
            "至少需要一个角色",
            "at least one role is required",
        ));
    }
    let is_customer = cmd.roles.contains(&Role::Customer);
    if is_customer && cmd.customer_id.is_none() {
        violations.push(Violation::new(
            "customerId",
            "required",
            "客户账号必须属于一个客户",
            "a customer account needs its customer",
        ));
    }
    if !violations.is_empty() {
        return Err(DomainError::Validation(violations));
    }
    Ok(vec![AccountEvent::Registered(Registered {
        account_id: events::account::account_id(&cmd.username),
        username: cmd.username.trim().to_string(),
        display_name: cmd.display_name,
        email: cmd.email,
        roles: cmd
            .roles
            .iter()
            .enumerate()
            .map(|(i, r)| RoleGrant {
                role_code: r.as_str().to_string(),
                sort_no: i as i32 + 1,
            })
            .collect(),
        customer_id: cmd.customer_id,
        staff_id: cmd.staff_id,
        must_set_password: cmd.must_set_password,
    })])
}

pub fn decide_password_set(
    state: &AccountState,
    how: &str,
) -> Result<Vec<AccountEvent>, DomainError> {
    if state.registered.is_none() {
        return Err(DomainError::NotFound);
    }
    Ok(vec![AccountEvent::PasswordSet(PasswordSet {
        how: how.to_string(),
    })])
}

#[derive(Debug, Default, Clone)]
pub struct CustomerState {
    pub customer_id: Option<Uuid>,
    pub username: String,
    pub profile: CustomerProfile,
}

impl Aggregate for CustomerState {
    type Event = CustomerEvent;
    const STREAM_TYPE: &'static str = events::customer::STREAM_TYPE;

    fn evolve(&mut self, event: &CustomerEvent) {
        match event {
            CustomerEvent::Registered(r) => {
                self.customer_id = Some(r.customer_id);
                self.username = r.username.clone();
                self.profile = r.profile.clone();
            }
        }
    }
}

pub fn decide_register_customer(
    state: &CustomerState,
    customer_id: Uuid,
    username: &str,
    profile: CustomerProfile,
) -> Result<Vec<CustomerEvent>, DomainError> {
    if state.customer_id.is_some() {
        return Err(DomainError::Conflict("customer already exists".into()));
    }
    let mut violations = username_violations(username);
    if profile.company_name.trim().is_empty() {
        violations.push(Violation::new(
            "companyName",
            "required",
            "公司名称不能为空",
            "companyName is required",
        ));
    }
    if !violations.is_empty() {
        return Err(DomainError::Validation(violations));
    }
    Ok(vec![CustomerEvent::Registered(
        events::customer::Registered {
            customer_id,
            username: username.to_string(),
            profile,
        },
    )])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn register(username: &str, roles: Vec<Role>, customer_id: Option<Uuid>) -> Register {
        Register {
            username: username.into(),
            display_name: username.into(),
            email: None,
            roles,
            customer_id,
            staff_id: None,
            must_set_password: false,
        }
    }

    #[test]
    fn registering_a_customer_account_without_its_company_is_refused() {
        let err = decide_register(
            &AccountState::default(),
            register("acme", vec![Role::Customer], None),
        )
        .expect_err("refused");
        assert!(matches!(err, DomainError::Validation(v) if v[0].field == "customerId"));
    }

    #[test]
    fn registering_the_same_account_twice_is_a_conflict() {
        let mut state = AccountState::default();
        for e in
            decide_register(&state, register("operator", vec![Role::Operator], None)).expect("ok")
        {
            state.evolve(&e);
        }
        assert_eq!(state.role(), Some(Role::Operator));
        let err = decide_register(&state, register("operator", vec![Role::Operator], None))
            .expect_err("dup");
        assert!(matches!(err, DomainError::Conflict(_)));
    }

    #[test]
    fn the_first_role_by_sort_number_is_the_accounts_role() {
        let mut state = AccountState::default();
        for e in decide_register(
            &state,
            register("boss", vec![Role::Admin, Role::Operator], None),
        )
        .expect("ok")
        {
            state.evolve(&e);
        }
        assert_eq!(state.role(), Some(Role::Admin));
    }

    #[test]
    fn a_username_with_spaces_is_refused() {
        let err = decide_register(
            &AccountState::default(),
            register("a b", vec![Role::Operator], None),
        )
        .expect_err("refused");
        assert!(matches!(err, DomainError::Validation(v) if v[0].field == "username"));
    }
}
