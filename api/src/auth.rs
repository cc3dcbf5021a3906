//! Tokens and sessions. A token is an HS256 JWT (`iss`, `aud`, `exp`, session id `sid`, token
//! id `jti`); it is accepted only while its server-side session lives. Within the last
//! `refresh_window` of its life any answer renews it (`refreshed: true` + `accessToken`);
//! concurrent requests get the same new token, and the old one works 30 s more.

use axum::extract::{FromRef, FromRequestParts};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use chrono::{DateTime, Duration, Utc};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use uuid::Uuid;

use crate::actor::{Actor, Role};
use crate::error::{ApiError, Text};
use crate::permissions::RolePermissions;

/// How long the previous token stays valid after a refresh.
const GRACE_SECONDS: i64 = 30;

/// How long a session row read from `auth_sessions` answers for it without a new read: a
/// revocation by another server instance takes effect there within this time; one by this
/// instance (logout, disabled account, changed password) at once.
const SESSION_CACHE_TTL: std::time::Duration = std::time::Duration::from_secs(2);
/// At most this many sessions cached; beyond, expired entries go, then all.
const SESSION_CACHE_MAX: usize = 10_000;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claims {
    pub sub: Uuid,
    pub sid: Uuid,
    pub jti: Uuid,
    pub role: Role,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cid: Option<Uuid>,
    pub name: String,
    pub dn: String,
    /// Every role of the account (the union of their permissions applies); absent in
    /// tokens issued for a single role, which then means `[role]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roles: Vec<Role>,
    pub iss: String,
    pub aud: String,
    pub iat: i64,
    pub exp: i64,
}

pub struct AuthConfig {
    pub secret: Vec<u8>,
    pub issuer: String,
    pub audience: String,
    pub token_ttl: Duration,
    pub refresh_window: Duration,
    pub absolute_ttl: Duration,
}

struct Inner {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    config: AuthConfig,
    pool: PgPool,
    permissions: RolePermissions,
    sessions: Mutex<SessionCache>,
    /// The last position each session wrote (read your own writes, [`crate::reads`]).
    positions: crate::reads::SessionPositions,
    /// Keys of the recipients' single-purpose links ([`crate::link`]), derived from the
    /// secret so that a link can never pass as a session token or the other way round.
    link_encoding: EncodingKey,
    link_decoding: DecodingKey,
}

/// Live session rows recently read, by session id (see [`SESSION_CACHE_TTL`]).
#[derive(Default)]
struct SessionCache {
    entries: HashMap<Uuid, CachedSession>,
    /// Bumped by every write to `auth_sessions` through this instance: a row read before
    /// the write is not cached after it.
    generation: u64,
}

struct CachedSession {
    account_id: Uuid,
    row: SessionRow,
    read_at: Instant,
}

impl SessionCache {
    fn get(&self, sid: Uuid) -> Option<&SessionRow> {
        self.entries
            .get(&sid)
            .filter(|c| c.read_at.elapsed() < SESSION_CACHE_TTL)
            .map(|c| &c.row)
    }

    fn put(&mut self, generation: u64, sid: Uuid, account_id: Uuid, row: SessionRow) {
        if generation != self.generation {
            return;
        }
        if self.entries.len() >= SESSION_CACHE_MAX {
            self.entries
                .retain(|_, c| c.read_at.elapsed() < SESSION_CACHE_TTL);
            if self.entries.len() >= SESSION_CACHE_MAX {
                self.entries.clear();
            }
        }
        self.entries.insert(
            sid,
            CachedSession {
                account_id,
                row,
                read_at: Instant::now(),
            },
        );
    }

    fn forget(&mut self, matches: impl Fn(Uuid, &CachedSession) -> bool) {
        self.entries.retain(|sid, c| !matches(*sid, c));
        self.generation += 1;
    }
}

/// Token issuing and checking, shared by every router.
#[derive(Clone)]
pub struct Auth(Arc<Inner>);

/// Who a new session is for.
pub struct SessionSubject {
    pub account_id: Uuid,
    pub username: String,
    pub display_name: String,
    pub role: Role,
    pub customer_id: Option<Uuid>,
}

/// How a session was opened; kept on its `auth_sessions` row (`login_method`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoginMethod {
    /// Username and password.
    Password,
    /// A customer's bound Easy-clear ID (in place of the username) and password.
    EasyClearId,
    /// Staff single sign-on.
    SingleSignOn,
    /// The development-only test login.
    Test,
}

impl LoginMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Password => "password",
            Self::EasyClearId => "easy_clear_id",
            Self::SingleSignOn => "sso",
            Self::Test => "test",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        [
            Self::Password,
            Self::EasyClearId,
            Self::SingleSignOn,
            Self::Test,
        ]
        .into_iter()
        .find(|m| m.as_str() == s)
    }
}

#[derive(Clone, sqlx::FromRow)]
struct SessionRow {
    absolute_expiry: DateTime<Utc>,
    current_jti: Uuid,
    current_iat: i64,
    previous_jti: Option<Uuid>,
    rotated_at: Option<DateTime<Utc>>,
    revoked_at: Option<DateTime<Utc>>,
}

impl Auth {
    pub fn new(config: AuthConfig, pool: PgPool) -> Self {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(std::slice::from_ref(&config.issuer));
        validation.set_audience(std::slice::from_ref(&config.audience));
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = 0;
        let link_key = crate::link::derive_key(&config.secret);
        Self(Arc::new(Inner {
            encoding: EncodingKey::from_secret(&config.secret),
            decoding: DecodingKey::from_secret(&config.secret),
            link_encoding: EncodingKey::from_secret(&link_key),
            link_decoding: DecodingKey::from_secret(&link_key),
            validation,
            config,
            permissions: RolePermissions::new(pool.clone()),
            pool,
            sessions: Mutex::new(SessionCache::default()),
            positions: Default::default(),
        }))
    }

    pub fn pool(&self) -> &PgPool {
        &self.0.pool
    }

    /// The `iss` of every token and link.
    pub fn issuer(&self) -> &str {
        &self.0.config.issuer
    }

    /// Signs a recipient link ([`crate::link::LinkClaims`]).
    pub fn sign_link(&self, claims: &crate::link::LinkClaims) -> Result<String, ApiError> {
        jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            claims,
            &self.0.link_encoding,
        )
        .map_err(ApiError::internal)
    }

    /// Checks a recipient link's signature, audience and expiry.
    pub fn verify_link(
        &self,
        token: &str,
    ) -> Result<crate::link::LinkClaims, crate::link::LinkRefusal> {
        crate::link::verify(token, &self.0.link_decoding, &self.0.config.issuer)
    }

    /// The roles' permission sets (cached).
    pub fn permissions(&self) -> &RolePermissions {
        &self.0.permissions
    }

    fn encode(&self, claims: &Claims) -> Result<String, ApiError> {
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), claims, &self.0.encoding)
            .map_err(ApiError::internal)
    }

    fn claims_for(
        &self,
        subject: &SessionSubject,
        roles: &[Role],
        sid: Uuid,
        jti: Uuid,
        iat: i64,
        absolute: DateTime<Utc>,
    ) -> Claims {
        let exp = (iat + self.0.config.token_ttl.num_seconds()).min(absolute.timestamp());
        Claims {
            sub: subject.account_id,
            sid,
            jti,
            role: subject.role,
            cid: subject.customer_id,
            name: subject.username.clone(),
            dn: subject.display_name.clone(),
            roles: if roles.len() > 1 {
                roles.to_vec()
            } else {
                Vec::new()
            },
            iss: self.0.config.issuer.clone(),
            aud: self.0.config.audience.clone(),
            iat,
            exp,
        }
    }

    /// Open a session and return its first token.
    pub async fn issue(
        &self,
        subject: &SessionSubject,
        method: LoginMethod,
    ) -> Result<String, ApiError> {
        self.issue_with_roles(subject, &[subject.role], method)
            .await
    }

    /// Open a session for an account holding several roles (`subject.role` is the one
    /// shown, the first by `sortNo`; permissions are the union over `roles`), recording how
    /// the user signed in.
    pub async fn issue_with_roles(
        &self,
        subject: &SessionSubject,
        roles: &[Role],
        method: LoginMethod,
    ) -> Result<String, ApiError> {
        let now = Utc::now();
        let sid = Uuid::new_v4();
        let jti = Uuid::new_v4();
        let absolute = now + self.0.config.absolute_ttl;
        sqlx::query(
            "INSERT INTO auth_sessions (session_id, account_id, absolute_expiry, current_jti, current_iat, login_method)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(sid)
        .bind(subject.account_id)
        .bind(absolute)
        .bind(jti)
        .bind(now.timestamp())
        .bind(method.as_str())
        .execute(&self.0.pool)
        .await?;
        self.encode(&self.claims_for(subject, roles, sid, jti, now.timestamp(), absolute))
    }

    /// How the session was opened (`None` for sessions opened before it was recorded).
    pub async fn login_method(&self, session_id: Uuid) -> Result<Option<LoginMethod>, ApiError> {
        let method: Option<Option<String>> =
            sqlx::query_scalar("SELECT login_method FROM auth_sessions WHERE session_id = $1")
                .bind(session_id)
                .fetch_optional(&self.0.pool)
                .await?;
        Ok(method.flatten().as_deref().and_then(LoginMethod::parse))
    }

    pub async fn revoke(&self, session_id: Uuid) -> Result<(), ApiError> {
        let result = sqlx::query("UPDATE auth_sessions SET revoked_at = now() WHERE session_id = $1 AND revoked_at IS NULL")
            .bind(session_id)
            .execute(&self.0.pool)
            .await;
        self.forget(|sid, _| sid == session_id);
        result?;
        Ok(())
    }

    /// Drops cached sessions after a write to `auth_sessions` (whether it succeeded or not).
    fn forget(&self, matches: impl Fn(Uuid, &CachedSession) -> bool) {
        let mut cache = self.0.sessions.lock().unwrap_or_else(|e| e.into_inner());
        cache.forget(matches);
    }

    /// The session row of `sid`: cached when read within [`SESSION_CACHE_TTL`] and still
    /// answering for `jti` (else read again: another instance may have renewed it).
    async fn session_row(
        &self,
        sid: Uuid,
        account_id: Uuid,
        accepts: impl Fn(&SessionRow) -> bool,
    ) -> Result<Option<SessionRow>, ApiError> {
        let generation = {
            let cache = self.0.sessions.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(row) = cache.get(sid).filter(|row| accepts(row)) {
                return Ok(Some(row.clone()));
            }
            cache.generation
        };
        let row: Option<SessionRow> = sqlx::query_as(
            "SELECT absolute_expiry, current_jti, current_iat, previous_jti, rotated_at, revoked_at
             FROM auth_sessions WHERE session_id = $1",
        )
        .bind(sid)
        .fetch_optional(&self.0.pool)
        .await?;
        if let Some(row) = row.as_ref().filter(|row| row.revoked_at.is_none()) {
            let mut cache = self.0.sessions.lock().unwrap_or_else(|e| e.into_inner());
            cache.put(generation, sid, account_id, row.clone());
        }
        Ok(row)
    }

    /// Revoke every session of an account (disabled user, password changed).
    pub async fn revoke_all(&self, account_id: Uuid) -> Result<(), ApiError> {
        let result = sqlx::query("UPDATE auth_sessions SET revoked_at = now() WHERE account_id = $1 AND revoked_at IS NULL")
            .bind(account_id)
            .execute(&self.0.pool)
            .await;
        self.forget(|_, c| c.account_id == account_id);
        result?;
        Ok(())
    }

    /// Check a token and its session; renew it when it is close to expiry.
    pub async fn authenticate(&self, token: &str) -> Result<Actor, ApiError> {
        Ok(self.authenticate_with_roles(token).await?.0)
    }

    /// [`Auth::authenticate`], also answering every role of the account.
    pub async fn authenticate_with_roles(
        &self,
        token: &str,
    ) -> Result<(Actor, Vec<Role>), ApiError> {
        let data = jsonwebtoken::decode::<Claims>(token, &self.0.decoding, &self.0.validation)
            .map_err(|_| ApiError::unauthorized())?;
        let claims = data.claims;
        let now = Utc::now();
        let is_current = |row: &SessionRow| row.current_jti == claims.jti;
        let in_grace = |row: &SessionRow| {
            row.previous_jti == Some(claims.jti)
                && row
                    .rotated_at
                    .is_some_and(|t| now - t <= Duration::seconds(GRACE_SECONDS))
        };
        let accepts = |row: &SessionRow| {
            row.revoked_at.is_none()
                && row.absolute_expiry > now
                && (is_current(row) || in_grace(row))
        };
        let row = self
            .session_row(claims.sid, claims.sub, accepts)
            .await?
            .ok_or_else(ApiError::unauthorized)?;
        if !accepts(&row) {
            return Err(ApiError::unauthorized());
        }
        let in_grace = in_grace(&row);
        let subject = SessionSubject {
            account_id: claims.sub,
            username: claims.name.clone(),
            display_name: claims.dn.clone(),
            role: claims.role,
            customer_id: claims.cid,
        };
        let roles = if claims.roles.is_empty() {
            vec![claims.role]
        } else {
            claims.roles.clone()
        };
        if in_grace {
            // A concurrent request already renewed this token: hand back the same new one.
            let renewed = self.claims_for(
                &subject,
                &roles,
                claims.sid,
                row.current_jti,
                row.current_iat,
                row.absolute_expiry,
            );
            crate::context::set_refreshed_token(self.encode(&renewed)?);
        } else if claims.exp - now.timestamp() <= self.0.config.refresh_window.num_seconds()
            && claims.exp < row.absolute_expiry.timestamp()
        {
            self.rotate(&subject, &roles, &claims, &row, now).await?;
        }
        crate::reads::set_session(claims.sid, &self.0.positions);
        let actor = Actor {
            id: claims.sub,
            username: claims.name,
            display_name: claims.dn,
            role: claims.role,
            customer_id: claims.cid,
            session_id: claims.sid,
        };
        Ok((actor, roles))
    }

    async fn rotate(
        &self,
        subject: &SessionSubject,
        roles: &[Role],
        claims: &Claims,
        row: &SessionRow,
        now: DateTime<Utc>,
    ) -> Result<(), ApiError> {
        let new_jti = Uuid::new_v4();
        let rotated: Result<Option<(Uuid, i64)>, sqlx::Error> = sqlx::query_as(
            "UPDATE auth_sessions
                SET previous_jti = current_jti, current_jti = $3, current_iat = $4, rotated_at = now()
              WHERE session_id = $1 AND current_jti = $2
          RETURNING current_jti, current_iat",
        )
        .bind(claims.sid)
        .bind(claims.jti)
        .bind(new_jti)
        .bind(now.timestamp())
        .fetch_optional(&self.0.pool)
        .await;
        self.forget(|sid, _| sid == claims.sid);
        let rotated = rotated?;
        let (jti, iat) = match rotated {
            Some(r) => r,
            // Lost the race: read what the winner wrote.
            None => {
                sqlx::query_as(
                    "SELECT current_jti, current_iat FROM auth_sessions WHERE session_id = $1",
                )
                .bind(claims.sid)
                .fetch_one(&self.0.pool)
                .await?
            }
        };
        let renewed = self.claims_for(subject, roles, claims.sid, jti, iat, row.absolute_expiry);
        crate::context::set_refreshed_token(self.encode(&renewed)?);
        Ok(())
    }
}

/// The bearer token of a request (`Authorization: Bearer x`, or a bare token).
pub fn bearer(parts: &Parts) -> Option<&str> {
    let value = parts.headers.get(AUTHORIZATION)?.to_str().ok()?.trim();
    let token = value
        .strip_prefix("Bearer ")
        .or_else(|| value.strip_prefix("bearer "))
        .unwrap_or(value)
        .trim();
    (!token.is_empty()).then_some(token)
}

impl<S> FromRequestParts<S> for Actor
where
    Auth: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        if let Some(actor) = parts.extensions.get::<Actor>() {
            return Ok(actor.clone());
        }
        let token = bearer(parts).ok_or_else(ApiError::unauthorized)?;
        let auth = Auth::from_ref(state);
        let (actor, roles) = auth.authenticate_with_roles(token).await?;
        parts.extensions.insert(actor.clone());
        parts.extensions.insert(ActorRoles(roles));
        Ok(actor)
    }
}

/// Every role of the authenticated caller (request extension set with the `Actor`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActorRoles(pub Vec<Role>);

impl Actor {
    /// 403 unless the actor's role is one of `roles`.
    pub fn require(&self, roles: &[Role]) -> Result<(), ApiError> {
        if roles.contains(&self.role) {
            Ok(())
        } else {
            Err(ApiError::Forbidden(Text::new(
                "没有权限执行此操作",
                "your role may not do this",
            )))
        }
    }

    pub fn require_staff(&self) -> Result<(), ApiError> {
        self.require(&[Role::Operator, Role::Admin, Role::SuperAdmin])
    }

    pub fn require_admin(&self) -> Result<(), ApiError> {
        self.require(&[Role::Admin, Role::SuperAdmin])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> SessionRow {
        SessionRow {
            absolute_expiry: Utc::now() + Duration::hours(1),
            current_jti: Uuid::new_v4(),
            current_iat: 0,
            previous_jti: None,
            rotated_at: None,
            revoked_at: None,
        }
    }

    #[test]
    fn a_write_drops_the_cached_rows_and_refuses_rows_read_before_it() {
        let mut cache = SessionCache::default();
        let (sid, other, account) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
        cache.put(cache.generation, sid, account, row());
        cache.put(cache.generation, other, Uuid::new_v4(), row());
        assert!(cache.get(sid).is_some());

        // A row read before a revocation is not cached after it.
        let before = cache.generation;
        cache.forget(|_, c| c.account_id == account);
        assert!(cache.get(sid).is_none());
        assert!(cache.get(other).is_some(), "other accounts stay cached");
        cache.put(before, sid, account, row());
        assert!(cache.get(sid).is_none());

        cache.put(cache.generation, sid, account, row());
        cache.forget(|s, _| s == sid);
        assert!(cache.get(sid).is_none());
    }

    #[test]
    fn cached_rows_expire_and_the_cache_stays_bounded() {
        let mut cache = SessionCache::default();
        let sid = Uuid::new_v4();
        cache.put(0, sid, Uuid::new_v4(), row());
        if let Some(c) = cache.entries.get_mut(&sid) {
            c.read_at = Instant::now() - SESSION_CACHE_TTL;
        }
        assert!(cache.get(sid).is_none());
        for _ in 0..SESSION_CACHE_MAX + 5 {
            cache.put(0, Uuid::new_v4(), Uuid::new_v4(), row());
        }
        assert!(cache.entries.len() <= SESSION_CACHE_MAX);
    }
}
