//! Checks against the read models before a customer command: caught up, no declaration
//! in progress, a free Easy-clear ID.

use super::*;

/// The projection that keeps `rm_declarations`.
pub(super) const DECLARATION_LIST: &str = "declaration_list";
/// The projection that keeps `rm_customers`.
pub(super) const CUSTOMER_DIRECTORY: &str = "customer_directory";

/// Waits (2 s at most; otherwise 503, as deciding on a stale read model could break the
/// rule it checks) until `projection` has applied every event written so far.
pub(super) async fn caught_up(state: &IdentityState, projection: &str) -> Result<(), ApiError> {
    let head = state
        .store
        .head_position()
        .await
        .map_err(crate::http::store_failure)?;
    let passed = state
        .store
        .wait_for_projections(&[projection], head, std::time::Duration::from_secs(2))
        .await
        .map_err(crate::http::store_failure)?;
    if passed {
        return Ok(());
    }
    Err(ApiError::Unavailable(Text::new(
        "数据尚未同步完成，请稍后再试",
        "the data is still catching up; try again shortly",
    )))
}

/// How many of the customer's declarations are in status 1, 2 or 3, from `rm_declarations`
/// once it has caught up with every event written so far.
pub(super) async fn declarations_in_progress(
    state: &IdentityState,
    id: Uuid,
) -> Result<i64, ApiError> {
    caught_up(state, DECLARATION_LIST).await?;
    Ok(sqlx::query_scalar(
        "SELECT count(*) FROM rm_declarations WHERE customer_id = $1 AND status IN (1, 2, 3)",
    )
    .bind(id)
    .fetch_one(&state.pool)
    .await?)
}

/// An Easy-clear ID names one customer (it binds to it and signs its users in): one that
/// another live customer has registered or bound is refused, naming `upsId`. Read from
/// `rm_customers` once it has caught up; `except` is the customer being changed.
pub(super) async fn ups_id_free(
    state: &IdentityState,
    ups_id: Option<&str>,
    except: Option<Uuid>,
) -> Result<(), ApiError> {
    let Some(ups_id) = ups_id.map(str::trim).filter(|u| !u.is_empty()) else {
        return Ok(());
    };
    caught_up(state, CUSTOMER_DIRECTORY).await?;
    let taken: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM rm_customers
                         WHERE status <> 'deleted' AND (ups_id = $1 OR bound_ups_id = $1)
                           AND customer_id IS DISTINCT FROM $2)",
    )
    .bind(ups_id)
    .bind(except)
    .fetch_one(&state.pool)
    .await?;
    if taken {
        return Err(ApiError::Conflict {
            reason: "UPS_ID_TAKEN",
            message: Text::new(
                format!("易清关 ID（upsId）{ups_id} 已登记给其他客户"),
                format!("the Easy-clear ID (upsId) {ups_id} is registered to another customer"),
            ),
        });
    }
    Ok(())
}
