//! Route guards: every endpoint declares who may call it next to its route, e.g.
//!
//! ```ignore
//! let g = Guards::new(&auth);
//! Router::new()
//!     .route("/api/v1/staff", get(list).route_layer(g.permission("staff:management")))
//!     .route("/api/v1/staff", post(create).route_layer(g.permission("staff:create")))
//!     .route("/api/v1/declarations", get(list).route_layer(g.customer_or_permission(&[
//!         "declarations:management",
//!     ])))
//! ```
//!
//! Every route that needs a caller carries one guard (public routes excepted: sign-in,
//! password setup and reset, single sign-on, reference tables, health); `docs/identity.md`
//! lists which rule each group of routes uses and what a CUSTOMER reaches without codes.
//!
//! A guard authenticates the caller (401 without a valid token), checks the rule (403 when
//! the role or the permission code is missing) before the body is read, and leaves the
//! [`Actor`], its [`ActorRoles`] and its [`Granted`] permission set in the request
//! extensions for the handler (which checks ownership: a foreign resource is 404).

use std::collections::BTreeSet;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::extract::{FromRef, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use tower::{Layer, Service};

use crate::actor::{Actor, Role};
use crate::auth::{ActorRoles, Auth, bearer};
use crate::error::{ApiError, Text};

/// Who may pass.
#[derive(Debug, Clone)]
pub enum Rule {
    /// Any signed-in user.
    SignedIn,
    /// One of these roles.
    Roles(&'static [Role]),
    /// Staff holding this permission code (through any of their roles).
    Permission(&'static str),
    /// Staff holding at least one of these codes (the handler narrows it down).
    AnyPermission(&'static [&'static str]),
    /// A customer by role alone (customers hold no codes and the handler keeps them to their
    /// own company's data: a foreign resource is 404), or staff holding at least one of these
    /// codes.
    CustomerOrPermission(&'static [&'static str]),
    /// ADMIN or SUPER_ADMIN holding this code.
    AdminPermission(&'static str),
}

/// The permission codes the caller holds (union over their roles).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Granted(pub Arc<BTreeSet<String>>);

impl Granted {
    pub fn has(&self, code: &str) -> bool {
        self.0.contains(code)
    }

    /// 403 unless the caller holds `code`.
    pub fn require(&self, code: &str) -> Result<(), ApiError> {
        if self.has(code) {
            Ok(())
        } else {
            Err(missing(code))
        }
    }
}

fn missing(code: &str) -> ApiError {
    ApiError::Forbidden(Text::new(
        format!("没有权限执行此操作（需要 {code}）"),
        format!("you are not allowed to do this (needs {code})"),
    ))
}

fn role_refused() -> ApiError {
    ApiError::Forbidden(Text::new("没有权限执行此操作", "your role may not do this"))
}

/// Authenticate the request and work out what it may do; cached in the extensions.
async fn resolve(auth: &Auth, parts: &mut Parts) -> Result<(Actor, Granted), ApiError> {
    if let (Some(actor), Some(granted)) = (
        parts.extensions.get::<Actor>(),
        parts.extensions.get::<Granted>(),
    ) {
        return Ok((actor.clone(), granted.clone()));
    }
    let (actor, roles) = match (
        parts.extensions.get::<Actor>(),
        parts.extensions.get::<ActorRoles>(),
    ) {
        (Some(a), Some(r)) => (a.clone(), r.0.clone()),
        _ => {
            let token = bearer(parts).ok_or_else(ApiError::unauthorized)?;
            auth.authenticate_with_roles(token).await?
        }
    };
    // Customers hold no staff codes, whatever a role edit may say.
    let codes = if actor.role.is_staff() {
        auth.permissions().union(&roles).await?
    } else {
        BTreeSet::new()
    };
    let granted = Granted(Arc::new(codes));
    parts.extensions.insert(actor.clone());
    parts.extensions.insert(ActorRoles(roles));
    parts.extensions.insert(granted.clone());
    Ok((actor, granted))
}

impl Rule {
    async fn check(&self, auth: &Auth, parts: &mut Parts) -> Result<(), ApiError> {
        let (actor, granted) = resolve(auth, parts).await?;
        match self {
            Rule::SignedIn => Ok(()),
            Rule::Roles(roles) => {
                if roles.contains(&actor.role) {
                    Ok(())
                } else {
                    Err(role_refused())
                }
            }
            Rule::Permission(code) => {
                if !actor.role.is_staff() {
                    return Err(role_refused());
                }
                granted.require(code)
            }
            Rule::AnyPermission(codes) => {
                if !actor.role.is_staff() {
                    return Err(role_refused());
                }
                if codes.iter().any(|c| granted.has(c)) {
                    Ok(())
                } else {
                    Err(missing(&codes.join(" | ")))
                }
            }
            Rule::CustomerOrPermission(codes) => {
                if actor.role == Role::Customer || codes.iter().any(|c| granted.has(c)) {
                    Ok(())
                } else {
                    Err(missing(&codes.join(" | ")))
                }
            }
            Rule::AdminPermission(code) => {
                if !matches!(actor.role, Role::Admin | Role::SuperAdmin) {
                    return Err(role_refused());
                }
                granted.require(code)
            }
        }
    }
}

/// Makes guard layers for one `Auth`.
#[derive(Clone)]
pub struct Guards {
    auth: Auth,
}

impl Guards {
    pub fn new(auth: &Auth) -> Self {
        Self { auth: auth.clone() }
    }

    pub fn rule(&self, rule: Rule) -> Guard {
        Guard {
            auth: self.auth.clone(),
            rule: Arc::new(rule),
        }
    }

    pub fn signed_in(&self) -> Guard {
        self.rule(Rule::SignedIn)
    }

    pub fn roles(&self, roles: &'static [Role]) -> Guard {
        self.rule(Rule::Roles(roles))
    }

    pub fn customer(&self) -> Guard {
        self.roles(&[Role::Customer])
    }

    pub fn staff(&self) -> Guard {
        self.roles(&[Role::Operator, Role::Admin, Role::SuperAdmin])
    }

    pub fn permission(&self, code: &'static str) -> Guard {
        self.rule(Rule::Permission(code))
    }

    pub fn any_permission(&self, codes: &'static [&'static str]) -> Guard {
        self.rule(Rule::AnyPermission(codes))
    }

    /// Customers (own data, by role) or staff holding one of `codes`: the declaration routes.
    pub fn customer_or_permission(&self, codes: &'static [&'static str]) -> Guard {
        self.rule(Rule::CustomerOrPermission(codes))
    }

    /// ADMIN and SUPER_ADMIN holding `code` (the export report: an admin-only button on a
    /// tagged menu). Two checks in one layer, so the order of layers cannot drop one.
    pub fn admin_permission(&self, code: &'static str) -> Guard {
        self.rule(Rule::AdminPermission(code))
    }
}

/// A tower layer enforcing one [`Rule`].
#[derive(Clone)]
pub struct Guard {
    auth: Auth,
    rule: Arc<Rule>,
}

impl<S> Layer<S> for Guard {
    type Service = GuardService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        GuardService {
            inner,
            guard: self.clone(),
        }
    }
}

#[derive(Clone)]
pub struct GuardService<S> {
    inner: S,
    guard: Guard,
}

impl<S> Service<Request> for GuardService<S>
where
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request) -> Self::Future {
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        let guard = self.guard.clone();
        Box::pin(async move {
            let (mut parts, body) = req.into_parts();
            match guard.rule.check(&guard.auth, &mut parts).await {
                Ok(()) => inner.call(Request::from_parts(parts, body)).await,
                Err(e) => Ok(e.into_response()),
            }
        })
    }
}

impl<S> FromRequestParts<S> for Granted
where
    Auth: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let auth = Auth::from_ref(state);
        Ok(resolve(&auth, parts).await?.1)
    }
}

impl<S> FromRequestParts<S> for ActorRoles
where
    Auth: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let auth = Auth::from_ref(state);
        resolve(&auth, parts).await?;
        parts
            .extensions
            .get::<ActorRoles>()
            .cloned()
            .ok_or_else(ApiError::unauthorized)
    }
}
