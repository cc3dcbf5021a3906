//! The audit chain through the server and `clearway verify`: the running server seals the
//! chain, verify holds on an untouched log and names a tampered event; production refuses to
//! start without the seal key, development makes one and keeps it.

use clearway::audit::{VerifyArgs, run_verify};
use clearway::config::Mode;
use clearway::startup::Application;
use sqlx::PgPool;

use crate::helpers::{config, seed, spawn};

async fn verify_output(pool: &PgPool, cfg: &clearway::config::Config) -> (bool, String) {
    let args = VerifyArgs {
        from: None,
        public_key: None,
    };
    let mut out = Vec::new();
    let held = run_verify(pool, &args, &cfg.audit, cfg.development(), &mut out)
        .await
        .expect("verify runs");
    (held, String::from_utf8(out).expect("utf-8"))
}

#[sqlx::test(migrations = "./migrations")]
async fn the_server_seals_the_chain_and_verify_names_a_changed_event(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let cfg = config(&pool, Mode::Development);
    // No seal yet: the sealer seals the head at once (checked every second).
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let (chained, sealed): (Option<i64>, Option<i64>) = sqlx::query_as(
            "SELECT (SELECT max(seq) FROM audit_chain), (SELECT max(seq) FROM audit_seals)",
        )
        .fetch_one(&app.pool)
        .await
        .expect("chain");
        if chained.is_some() && chained == sealed {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "never sealed");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let (held, out) = verify_output(&pool, &cfg).await;
    assert!(held, "{out}");
    assert!(out.contains("OK"), "{out}");

    let target: i64 = sqlx::query_scalar("SELECT global_position FROM audit_chain WHERE seq = 3")
        .fetch_one(&pool)
        .await
        .expect("row 3");
    let mut tx = pool.begin().await.expect("tx");
    for sql in [
        "ALTER TABLE events DISABLE TRIGGER events_append_only".to_string(),
        format!(
            "UPDATE events SET metadata = metadata || '{{\"actorName\": \"someone else\"}}' \
             WHERE global_position = {target}"
        ),
        "ALTER TABLE events ENABLE TRIGGER events_append_only".to_string(),
    ] {
        sqlx::query(&sql).execute(&mut *tx).await.expect("tamper");
    }
    tx.commit().await.expect("commit");
    let (held, out) = verify_output(&pool, &cfg).await;
    assert!(!held, "{out}");
    assert!(
        out.contains(&format!("BROKEN at position {target}: changed")),
        "{out}"
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn production_without_the_seal_key_refuses_to_start(pool: PgPool) {
    let mut cfg = config(&pool, Mode::Production);
    cfg.audit.audit_signing_key = None;
    let refused = Application::build(&cfg, pool, true)
        .await
        .err()
        .expect("refused");
    assert!(
        refused.to_string().contains("CLEARWAY_AUDIT_SIGNING_KEY"),
        "{refused}"
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn development_without_the_seal_key_makes_one_and_keeps_it(pool: PgPool) {
    let dir = std::env::temp_dir().join(format!("clearway-audit-{}", uuid::Uuid::now_v7()));
    let mut cfg = config(&pool, Mode::Development);
    cfg.audit.audit_signing_key = None;
    cfg.audit.audit_dev_key_file = dir.join("audit-signing.key");
    seed(&pool, &cfg).await;
    let first = cfg.audit.signing_key(true).expect("made").public_hex();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&cfg.audit.audit_dev_key_file)
            .expect("key file")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    drop(Application::build(&cfg, pool, true).await.expect("starts"));
    assert_eq!(
        cfg.audit.signing_key(true).expect("kept").public_hex(),
        first
    );
    assert_eq!(cfg.audit.public_key(true).expect("public").to_bytes(), {
        let k = cfg.audit.signing_key(true).expect("key");
        k.public().to_bytes()
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[sqlx::test(migrations = "./migrations")]
async fn the_compliance_role_reads_the_audit_log_and_can_hold_nothing_else(pool: PgPool) {
    let app = spawn(pool).await;
    let superadmin = app.login("superadmin").await;
    let roles = crate::helpers::body(app.get(&superadmin, "/api/v1/roles").await).await;
    let text = roles.to_string();
    assert!(
        text.contains("COMPLIANCE") && text.contains("audit:read"),
        "{roles}"
    );

    let widened = crate::helpers::body(
        app.put(
            &superadmin,
            "/api/v1/roles/COMPLIANCE/permissions",
            serde_json::json!({"permissionCodes": ["audit:read", "declarations:management"]}),
        )
        .await,
    )
    .await;
    assert_eq!(widened["code"], 400, "{widened}");
    assert!(widened.to_string().contains("permissionCodes"), "{widened}");
    // The auditor signs in like other staff and holds audit:read alone.
    let auditor = app.login("auditor").await;
    let mine = crate::helpers::body(app.get(&auditor, "/api/v1/user-permissions").await).await;
    assert_eq!(mine["code"], 200, "{mine}");
    let mine = mine["data"].to_string();
    assert!(mine.contains("audit:read"), "{mine}");
    assert!(!mine.contains("declarations:management"), "{mine}");
}
