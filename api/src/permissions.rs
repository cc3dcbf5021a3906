//! Permission codes of the spec (route tags and button permissions) and the default matrix.
//! The identity issue makes the matrix editable; until then this is the single source.

use crate::actor::Role;

/// (code, Chinese description, English description)
pub const PERMISSIONS: &[(&str, &str, &str)] = &[
    (
        "declarations:management",
        "报关单管理",
        "Declaration management",
    ),
    (
        "clearance:management",
        "清关异常管理",
        "Clearance exception management",
    ),
    ("customers:management", "客户管理", "Customer management"),
    ("staff:management", "员工管理", "Staff management"),
    ("roles:management", "角色管理", "Role management"),
    ("ports:management", "口岸管理", "Port management"),
    ("customers:create", "新建客户", "Create customers"),
    ("customers:maintain", "维护客户", "Maintain customers"),
    ("customers:delete", "删除客户", "Delete customers"),
    ("staff:create", "新建员工", "Create staff"),
    ("staff:delete", "删除员工", "Delete staff"),
    (
        "staff:permission:transfer",
        "移交管理权限",
        "Hand over administrative authority",
    ),
    ("staff:maintain", "维护员工", "Maintain staff"),
    (
        "user-roles:grant:SUPER_ADMIN",
        "授予超级管理员角色",
        "Grant the SUPER_ADMIN role",
    ),
    (
        "user-roles:grant:ADMIN",
        "授予管理员角色",
        "Grant the ADMIN role",
    ),
    (
        "user-roles:grant:OPERATOR",
        "授予操作员角色",
        "Grant the OPERATOR role",
    ),
    (
        "user-roles:grant:CUSTOMER",
        "授予客户角色",
        "Grant the CUSTOMER role",
    ),
    ("ports:add-slic", "新增 SLIC", "Add SLIC"),
];

const OPERATOR: &[&str] = &[
    "declarations:management",
    "clearance:management",
    "customers:management",
    "customers:create",
    "customers:maintain",
];

/// The default permission codes of a role.
pub fn default_codes(role: Role) -> Vec<&'static str> {
    match role {
        Role::SuperAdmin => PERMISSIONS.iter().map(|p| p.0).collect(),
        Role::Admin => PERMISSIONS
            .iter()
            .map(|p| p.0)
            .filter(|c| *c != "user-roles:grant:SUPER_ADMIN" && *c != "staff:permission:transfer")
            .collect(),
        Role::Operator => OPERATOR.to_vec(),
        Role::Customer => Vec::new(),
    }
}

pub fn describe(code: &str) -> Option<(&'static str, &'static str)> {
    PERMISSIONS.iter().find(|p| p.0 == code).map(|p| (p.1, p.2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_matrix_follows_the_documented_rules() {
        assert_eq!(default_codes(Role::SuperAdmin).len(), PERMISSIONS.len());
        let admin = default_codes(Role::Admin);
        assert!(!admin.contains(&"user-roles:grant:SUPER_ADMIN"));
        assert!(!admin.contains(&"staff:permission:transfer"));
        assert!(admin.contains(&"ports:add-slic"));
        let op = default_codes(Role::Operator);
        assert!(!op.contains(&"customers:delete"));
        assert!(
            !op.iter().any(|c| c.starts_with("staff")
                || c.starts_with("roles")
                || c.starts_with("ports"))
        );
        assert!(default_codes(Role::Customer).is_empty());
    }
}
