//! Permission codes of the spec (route tags and button permissions), the documented default
//! matrix, and the cache of the roles' current permission sets.
//!
//! The sets are held by the `Role` aggregates (one stream per role code) and projected into
//! `rm_roles`. [`RolePermissions`] reads that table, caches it for [`CACHE_TTL`], and is
//! updated in-process by the command that changes a role, so this instance applies a change
//! at once and other instances within the TTL.
//!
//! A role without a row holds no code (fail closed). A row is missing while the
//! `role_permissions` projection is being rebuilt (the rebuild empties `rm_roles` and
//! replays), and falling back to the default matrix then would hand back, until the replay
//! ends, every code an admin had taken away. Nothing needs a code before the rows exist:
//! `clearway seed` defines the four roles through the command path as the system actor
//! (which no permission check stands in front of) and catches the projections up before it
//! exits, and a server's own projectors project the roles within moments of starting: a
//! check that finds a row missing while role events wait to be projected waits for them
//! ([`PROJECTION_WAIT`] at most) before it decides. While any role lacks its row, the sets
//! are read again at every check rather than cached, so the codes come back as soon as the
//! row does.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use sqlx::PgPool;

use crate::actor::Role;
use crate::error::ApiError;

/// How long a loaded set is trusted before `rm_roles` is read again.
pub const CACHE_TTL: Duration = Duration::from_secs(5);

/// How long a check waits for role events still to be projected when a role lacks its row.
const PROJECTION_WAIT: Duration = Duration::from_secs(5);

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
    (
        "user-roles:grant:COMPLIANCE",
        "授予合规审查角色",
        "Grant the COMPLIANCE role",
    ),
    ("audit:read", "查阅审计日志", "Read the audit log"),
    (
        "audit:export",
        "导出审计日志（含未遮蔽的原始内容）",
        "Export the audit log (raw payloads, unmasked)",
    ),
    (
        "personal-data:erase",
        "删除个人数据",
        "Erase a data subject's personal data",
    ),
    (
        "customs:management",
        "海关通道管理",
        "Customs channel management",
    ),
    (
        "declarations:export",
        "导出报关单报表",
        "Export the declaration report",
    ),
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
            .filter(|c| {
                *c != "user-roles:grant:SUPER_ADMIN"
                    && *c != "staff:permission:transfer"
                    && *c != "personal-data:erase"
                    && *c != "audit:export"
            })
            .collect(),
        Role::Operator => OPERATOR.to_vec(),
        Role::Customer => Vec::new(),
        // The export carries payloads unmasked (docs/compliance.md): the reviewer who
        // verifies the log offline holds it, an administrator only when granted it.
        Role::Compliance => vec!["audit:read", "audit:export"],
    }
}

pub fn describe(code: &str) -> Option<(&'static str, &'static str)> {
    PERMISSIONS.iter().find(|p| p.0 == code).map(|p| (p.1, p.2))
}

pub fn is_known(code: &str) -> bool {
    PERMISSIONS.iter().any(|p| p.0 == code)
}

/// The code needed to grant (or take away) `role`.
pub fn grant_code(role: Role) -> String {
    format!("user-roles:grant:{}", role.as_str())
}

/// A role's fixed order (the first role of a user by `sortNo` is the one shown) and
/// description.
pub fn role_info(role: Role) -> (i32, &'static str, &'static str) {
    match role {
        Role::SuperAdmin => (1, "超级管理员", "Super administrator"),
        Role::Admin => (2, "管理员", "Administrator"),
        Role::Operator => (3, "操作员", "Operator"),
        Role::Customer => (4, "客户", "Customer"),
        Role::Compliance => (5, "合规审查", "Compliance reviewer"),
    }
}

type Sets = HashMap<Role, BTreeSet<String>>;

struct Cache {
    loaded_at: Option<Instant>,
    sets: Sets,
    /// Roles changed by this instance recently: kept over a reload for a TTL, so a read
    /// model that has not caught up yet cannot bring back the old set.
    pinned: HashMap<Role, (Instant, BTreeSet<String>)>,
}

/// The current permission sets of the roles, cached.
#[derive(Clone)]
pub struct RolePermissions {
    pool: PgPool,
    cache: Arc<RwLock<Cache>>,
}

impl RolePermissions {
    pub fn new(pool: PgPool) -> Self {
        Self {
            pool,
            cache: Arc::new(RwLock::new(Cache {
                loaded_at: None,
                sets: Sets::new(),
                pinned: HashMap::new(),
            })),
        }
    }

    fn fresh(&self) -> Option<Sets> {
        let cache = self.cache.read().ok()?;
        let loaded = cache.loaded_at?;
        (loaded.elapsed() < CACHE_TTL).then(|| cache.sets.clone())
    }

    async fn load(&self) -> Result<Sets, ApiError> {
        if let Some(sets) = self.fresh() {
            return Ok(sets);
        }
        let deadline = Instant::now() + PROJECTION_WAIT;
        let (sets, complete) = loop {
            let sets = self.read().await?;
            let complete = Role::ALL.iter().all(|role| sets.contains_key(role));
            // A missing row while role events wait to be projected (a server that has just
            // started on freshly seeded roles, a rebuild replaying): wait a moment for them,
            // then hold nothing for the roles still missing.
            if complete || Instant::now() >= deadline || !self.role_events_pending().await? {
                break (sets, complete);
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        let mut sets = sets;
        let mut cache = self
            .cache
            .write()
            .map_err(|_| ApiError::internal("permission cache poisoned"))?;
        cache.pinned.retain(|_, (at, _)| at.elapsed() < CACHE_TTL);
        for (role, (_, set)) in &cache.pinned {
            sets.insert(*role, set.clone());
        }
        cache.sets = sets.clone();
        cache.loaded_at = complete.then(Instant::now);
        Ok(sets)
    }

    async fn read(&self) -> Result<Sets, ApiError> {
        let rows: Vec<(String, Vec<String>)> =
            sqlx::query_as("SELECT role_code, permissions FROM rm_roles")
                .fetch_all(&self.pool)
                .await?;
        Ok(rows
            .into_iter()
            .filter_map(|(code, permissions)| {
                Role::parse(&code).map(|role| {
                    let mut set: BTreeSet<String> = permissions.into_iter().collect();
                    // SUPER_ADMIN keeps every code, also one added to the list after its
                    // stream was defined (the stored set predates it).
                    if role == Role::SuperAdmin {
                        set.extend(PERMISSIONS.iter().map(|p| p.0.to_string()));
                    }
                    (role, set)
                })
            })
            .collect())
    }

    /// Whether the `role_permissions` projection has role events (stream type `role`) still
    /// to apply, or has not started.
    async fn role_events_pending(&self) -> Result<bool, ApiError> {
        Ok(sqlx::query_scalar(
            "SELECT NOT EXISTS (
                 SELECT 1 FROM projection_checkpoints c
                 WHERE c.name = 'role_permissions' AND NOT EXISTS (
                     SELECT 1 FROM events e
                     WHERE e.stream_type = 'role'
                       AND (e.tx_id, e.global_position) > (c.tx_id, c.position)))",
        )
        .fetch_one(&self.pool)
        .await?)
    }

    /// The codes of one role.
    pub async fn of_role(&self, role: Role) -> Result<BTreeSet<String>, ApiError> {
        Ok(self.load().await?.remove(&role).unwrap_or_default())
    }

    /// The union of the codes of `roles` (a user with several roles holds all of them).
    pub async fn union(&self, roles: &[Role]) -> Result<BTreeSet<String>, ApiError> {
        let sets = self.load().await?;
        Ok(roles
            .iter()
            .filter_map(|r| sets.get(r))
            .flat_map(|s| s.iter().cloned())
            .collect())
    }

    /// Record a change made by this instance (applies at once here).
    pub fn set(&self, role: Role, codes: BTreeSet<String>) {
        if let Ok(mut cache) = self.cache.write() {
            cache.sets.insert(role, codes.clone());
            cache.pinned.insert(role, (Instant::now(), codes));
        }
    }

    /// Forget the cache: the next check reads `rm_roles`.
    pub fn invalidate(&self) {
        if let Ok(mut cache) = self.cache.write() {
            cache.loaded_at = None;
        }
    }
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
        assert!(!admin.contains(&"audit:export"));
        assert!(default_codes(Role::Compliance).contains(&"audit:export"));
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

    async fn define(pool: &PgPool, role: Role, codes: &[&str]) {
        sqlx::query(
            "INSERT INTO rm_roles (role_code, sort_no, permissions, updated_at, version)
             VALUES ($1, $2, $3, now(), 1)",
        )
        .bind(role.as_str())
        .bind(role_info(role).0)
        .bind(codes)
        .execute(pool)
        .await
        .expect("role row");
    }

    #[sqlx::test(migrations = "../migrations")]
    async fn a_role_without_its_row_holds_no_code_while_a_rebuild_replays(pool: PgPool) {
        // An admin took "ports:add-slic" away from ADMIN.
        let admin: Vec<&str> = default_codes(Role::Admin)
            .into_iter()
            .filter(|c| *c != "ports:add-slic")
            .collect();
        for role in Role::ALL {
            let codes = if role == Role::Admin {
                admin.clone()
            } else {
                default_codes(role)
            };
            define(&pool, role, &codes).await;
        }
        // The projection stands at the head (this database holds no role event).
        sqlx::query("INSERT INTO projection_checkpoints (name) VALUES ('role_permissions')")
            .execute(&pool)
            .await
            .expect("checkpoint");
        let permissions = RolePermissions::new(pool.clone());
        let before = permissions.of_role(Role::Admin).await.expect("codes");

        // `rebuild role_permissions` empties the table, then replays.
        sqlx::query("TRUNCATE rm_roles")
            .execute(&pool)
            .await
            .expect("truncate");
        permissions.invalidate();
        let during = permissions.union(&[Role::Admin, Role::Operator]).await;
        define(&pool, Role::Operator, &default_codes(Role::Operator)).await;
        let operator_back = permissions.of_role(Role::Operator).await.expect("codes");
        let admin_still_missing = permissions.of_role(Role::Admin).await.expect("codes");
        define(&pool, Role::Admin, &admin).await;
        let admin_back = permissions.of_role(Role::Admin).await.expect("codes");

        assert!(!before.contains("ports:add-slic"));
        assert_eq!(during.expect("codes"), BTreeSet::new());
        assert_eq!(operator_back.len(), default_codes(Role::Operator).len());
        assert!(admin_still_missing.is_empty());
        assert_eq!(admin_back, before);
    }

    #[test]
    fn every_role_has_a_grant_code_among_the_known_codes() {
        for role in Role::ALL {
            assert!(is_known(&grant_code(role)), "{role:?}");
        }
    }

    #[test]
    fn roles_are_ordered_from_the_most_powerful() {
        let orders: Vec<i32> = Role::ALL.iter().map(|r| role_info(*r).0).collect();
        assert_eq!(orders, vec![1, 2, 3, 4, 5]);
    }
}
