-- rm_declaration_taxes (projection `declaration_taxes`, docs/taxes.md): per declaration, the
-- duties-and-taxes estimate recorded when it was submitted and what customs assessed (the
-- taxes of its latest `T` receipt). A table of its own beside rm_declarations, so the
-- declaration list's projection is not touched; the list, the detail and the export join it.
CREATE TABLE rm_declaration_taxes (
    declaration_id  uuid PRIMARY KEY,
    -- the estimate's levied total (CNY) and the whole estimate as submitted
    estimated_total numeric(18, 2),
    estimate        json,
    -- the sum of the assessed taxes (CNY) and each of them ([{type, amount}], as customs wrote them)
    assessed_total  numeric(18, 2),
    assessed        jsonb,
    assessed_at     timestamptz,
    position        bigint NOT NULL
);
