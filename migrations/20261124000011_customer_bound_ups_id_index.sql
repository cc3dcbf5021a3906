-- Sign-in by the bound Easy-clear ID looks the customer up by `bound_ups_id` (every sign-in
-- with a name that is not a username asks, so it must not scan the customer directory).
CREATE INDEX rm_customers_bound_ups_id ON rm_customers (bound_ups_id)
    WHERE bound_ups_id IS NOT NULL;
