-- rm_contact_books: each customer's saved notice contacts (the spec's contacter store), as
-- the last ContactBookSaved left them; projection `contact_books`.
CREATE TABLE rm_contact_books (
    customer_id uuid PRIMARY KEY,
    version     bigint      NOT NULL,
    contacts    jsonb       NOT NULL DEFAULT '[]',
    updated_at  timestamptz NOT NULL,
    updated_by  text
);
