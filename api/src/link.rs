//! Single-purpose links for people without an account: the recipient of a clearance
//! exception notice opens `/temporarily?token=...` and sees that one exception's request,
//! uploads its documents and confirms, nothing else.
//!
//! A link is an HS256 JWT signed with a key derived from the token secret
//! (`SHA-256("clearway exception link\0" || secret)`) under its own audience, so it never
//! passes as a session token nor a session token as a link. It names the exception (`sub`),
//! its customer (`cid`), the notice delivery it was sent with (`jti`, which the exception
//! records when the link is used to confirm: a used link is refused after that), and
//! expires (`exp`). Whether it may still act is the exception's to say: only while the
//! exception waits on the customer and the link has not confirmed yet.

use chrono::{DateTime, Utc};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use uuid::Uuid;

/// The audience of every recipient link.
pub const AUDIENCE: &str = "clearway:exception-link";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkClaims {
    /// The exception.
    pub sub: Uuid,
    /// The exception's customer.
    pub cid: Uuid,
    /// The delivery (notice, channel, recipient) the link went out with.
    pub jti: Uuid,
    pub iss: String,
    pub aud: String,
    pub iat: i64,
    pub exp: i64,
}

impl LinkClaims {
    pub fn new(
        issuer: &str,
        exception: Uuid,
        customer: Uuid,
        delivery: Uuid,
        issued: DateTime<Utc>,
        expires: DateTime<Utc>,
    ) -> Self {
        Self {
            sub: exception,
            cid: customer,
            jti: delivery,
            iss: issuer.to_string(),
            aud: AUDIENCE.to_string(),
            iat: issued.timestamp(),
            exp: expires.timestamp(),
        }
    }

    pub fn expires_at(&self) -> Option<DateTime<Utc>> {
        DateTime::from_timestamp(self.exp, 0)
    }
}

/// Why a link does not open. Each is shown to the recipient as a page of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkRefusal {
    /// Not a link of ours (bad signature, wrong audience, malformed).
    Invalid,
    /// Past its `exp`.
    Expired,
}

impl LinkRefusal {
    pub fn code(self) -> &'static str {
        match self {
            LinkRefusal::Invalid => "LINK_INVALID",
            LinkRefusal::Expired => "LINK_EXPIRED",
        }
    }
}

pub(crate) fn derive_key(secret: &[u8]) -> Vec<u8> {
    let mut h = Sha256::new();
    h.update(b"clearway exception link\0");
    h.update(secret);
    h.finalize().to_vec()
}

pub(crate) fn verify(
    token: &str,
    key: &DecodingKey,
    issuer: &str,
) -> Result<LinkClaims, LinkRefusal> {
    let mut validation = Validation::new(Algorithm::HS256);
    validation.set_issuer(&[issuer]);
    validation.set_audience(&[AUDIENCE]);
    validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
    validation.leeway = 0;
    jsonwebtoken::decode::<LinkClaims>(token, key, &validation)
        .map(|d| d.claims)
        .map_err(|e| match e.kind() {
            jsonwebtoken::errors::ErrorKind::ExpiredSignature => LinkRefusal::Expired,
            _ => LinkRefusal::Invalid,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use jsonwebtoken::{EncodingKey, Header};

    fn sign(claims: &LinkClaims, secret: &[u8]) -> String {
        jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            claims,
            &EncodingKey::from_secret(&derive_key(secret)),
        )
        .expect("sign")
    }

    fn claims(expires_in: i64) -> LinkClaims {
        let now = Utc::now();
        LinkClaims::new(
            "clearway",
            Uuid::new_v4(),
            Uuid::new_v4(),
            Uuid::new_v4(),
            now,
            now + chrono::Duration::seconds(expires_in),
        )
    }

    #[test]
    fn a_link_opens_with_its_key_only_and_not_after_it_expires() {
        let secret = b"a-secret-of-at-least-thirty-two-bytes!!";
        let key = DecodingKey::from_secret(&derive_key(secret));
        let c = claims(600);
        assert_eq!(verify(&sign(&c, secret), &key, "clearway"), Ok(c.clone()));
        assert_eq!(
            verify(
                &sign(&c, b"another-secret-of-thirty-two-bytes!!!!"),
                &key,
                "clearway"
            ),
            Err(LinkRefusal::Invalid)
        );
        assert_eq!(
            verify(&sign(&c, secret), &key, "elsewhere"),
            Err(LinkRefusal::Invalid)
        );
        assert_eq!(
            verify(&sign(&claims(-5), secret), &key, "clearway"),
            Err(LinkRefusal::Expired)
        );
        assert_eq!(
            verify("not.a.token", &key, "clearway"),
            Err(LinkRefusal::Invalid)
        );
    }

    #[test]
    fn a_session_secret_signature_is_not_a_link() {
        // Signed with the raw secret (as session tokens are), not the derived link key.
        let secret = b"a-secret-of-at-least-thirty-two-bytes!!";
        let c = claims(600);
        let raw = jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            &c,
            &EncodingKey::from_secret(secret),
        )
        .expect("sign");
        let key = DecodingKey::from_secret(&derive_key(secret));
        assert_eq!(verify(&raw, &key, "clearway"), Err(LinkRefusal::Invalid));
    }
}
