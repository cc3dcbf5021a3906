//! Outgoing mail over SMTP (lettre): `CLEARWAY_SMTP_URL` such as `smtp://127.0.0.1:1025`
//! (plain), `smtp://user:pass@host:587?tls=required` (STARTTLS) or `smtps://...` (TLS).

use lettre::message::{Mailbox, header::ContentType};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

#[derive(Clone)]
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mailer").field("from", &self.from).finish()
    }
}

impl Mailer {
    pub fn from_url(url: &str, from: &str) -> Result<Self, String> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| format!("CLEARWAY_SMTP_URL: {e}"))?
            .build();
        let from = from
            .parse::<Mailbox>()
            .map_err(|e| format!("CLEARWAY_MAIL_FROM: {e}"))?;
        Ok(Self { transport, from })
    }

    pub async fn send(&self, to: &str, subject: &str, body: String) -> Result<(), String> {
        let to = to.parse::<Mailbox>().map_err(|e| e.to_string())?;
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(subject)
            .header(ContentType::TEXT_PLAIN)
            .body(body)
            .map_err(|e| e.to_string())?;
        self.transport
            .send(message)
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}
