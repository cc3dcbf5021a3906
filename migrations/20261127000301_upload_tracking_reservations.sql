-- Bulk upload: the tracking numbers an upload has made declarations for, one per customer.
-- Written in the transaction that appends the declaration's `DeclarationDrafted` (so two
-- uploads of the same tracking number at once cannot both make one: the second insert waits
-- for the first's commit and then finds the number taken). A number held by a declaration
-- that was deleted since is taken over by the next upload.
CREATE TABLE upload_tracking_reservations (
    customer_id uuid NOT NULL,
    tracking_number text NOT NULL,
    declaration_id uuid NOT NULL,
    reserved_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (customer_id, tracking_number)
);
