-- Counter changes of the projection `declaration_list`, appended per event and folded into
-- rm_declaration_counts every 4096 feed positions. Updating the same counter row once per
-- event made every further update walk the row's growing chain of versions inside a batch
-- (and a whole rebuild is one transaction): quadratic. Appending never touches an existing
-- row; readers add both tables.
CREATE TABLE rm_declaration_count_deltas (
    scope uuid NOT NULL,
    declaration_type text NOT NULL,
    status smallint NOT NULL,
    day date NOT NULL,
    n bigint NOT NULL
);

CREATE INDEX rm_declaration_count_deltas_key_idx
    ON rm_declaration_count_deltas (scope, declaration_type, status, day);
