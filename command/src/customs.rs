//! The customs channel (docs/customs.md, the contract in CUSTOMS.md): declaration messages
//! written to the exchange folder's `outbox/` ([`outbox`], made by [`message`]), receipts
//! read from its `inbox/` ([`inbox`], parsed by [`receipt`]) and recorded on their
//! declarations' streams; the customer's opt-in e-mail on release or rejection ([`notices`]).

pub mod inbox;
pub mod message;
pub mod notices;
pub mod outbox;
pub mod outcome;
pub mod receipt;
pub mod routes;
pub mod sp1;
pub mod supplement;

pub use outbox::Folder;
