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

    /// Send one message. The error says what went wrong without any e-mail address (an
    /// SMTP server's answer often quotes the recipient), so it can be logged as it is.
    pub async fn send(&self, to: &str, subject: &str, body: String) -> Result<(), String> {
        self.send_raw(to, subject, body)
            .await
            .map_err(|e| redact_addresses(&e))
    }

    /// [`Mailer::send`] with a fixed `Message-ID` (`<id@domain>`), so that a message sent
    /// twice under one id is recognisably the same message.
    pub async fn send_with_id(
        &self,
        to: &str,
        subject: &str,
        body: String,
        message_id: String,
    ) -> Result<(), String> {
        self.send_message(to, subject, body, Some(message_id))
            .await
            .map_err(|e| redact_addresses(&e))
    }

    async fn send_raw(&self, to: &str, subject: &str, body: String) -> Result<(), String> {
        self.send_message(to, subject, body, None).await
    }

    async fn send_message(
        &self,
        to: &str,
        subject: &str,
        body: String,
        message_id: Option<String>,
    ) -> Result<(), String> {
        let to = to.parse::<Mailbox>().map_err(|e| e.to_string())?;
        let message = Message::builder()
            .message_id(message_id)
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

/// `text` with every word that looks like an e-mail address replaced by a short keyed digest
/// of it (the same address gives the same mark, so log lines can still be matched up; keyed
/// with the personal-data secret, so the mark cannot be matched against guessed addresses).
pub fn redact_addresses(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if word.contains('@') {
            let trimmed = word.trim_matches(|c: char| "<>()[]\"',;:".contains(c));
            let digest = events::pii::keyed_digest("log-address", &trimmed.to_lowercase());
            out.push_str(&format!("<address {}>", &digest[..12]));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_whitespace() {
            flush(&mut word, &mut out);
            out.push(c);
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_smtp_answer_quoting_the_recipient_loses_the_address() {
        let error =
            "permanent error (550): 5.1.1 <Bob.Smith@example.com>: Recipient address rejected";
        let redacted = redact_addresses(error);
        assert!(!redacted.contains("example.com"), "{redacted}");
        assert!(!redacted.to_lowercase().contains("bob"), "{redacted}");
        assert!(redacted.starts_with("permanent error (550): 5.1.1 <address "));
        assert!(redacted.ends_with("Recipient address rejected"));
        // The same address always gives the same mark.
        assert_eq!(
            redact_addresses("bob.smith@example.com"),
            redact_addresses("<BOB.SMITH@example.com>:")
        );
    }

    #[tokio::test]
    async fn a_failed_send_never_names_the_recipient() {
        // Nothing listens on port 9: the connection fails, and the refused address is not
        // in the error either way.
        let mailer = Mailer::from_url("smtp://127.0.0.1:9", "Clearway <no-reply@clearway.test>")
            .expect("mailer");
        let err = mailer
            .send("victim@example.com", "s", "b".into())
            .await
            .expect_err("no server");
        assert!(!err.contains("victim"), "{err}");
        let err = mailer
            .send("not an address victim@", "s", "b".into())
            .await
            .expect_err("bad address");
        assert!(!err.contains("victim"), "{err}");
    }
}
