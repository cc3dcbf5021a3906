-- Announces every change of a customer's stream, with its id, to the processes that keep
-- customers' states in memory (command/src/customer/cache.rs). NOTIFY is delivered on
-- commit, so a listener never hears of a change that did not happen. Only events of
-- `customer` streams (a few per customer, ever) run the function: the WHEN clause is checked
-- without calling it, so declaration appends pay nothing measurable, and the notifications'
-- commit-time lock (docs/benchmarks.md, "The NOTIFY trigger serializes every append") is
-- taken only by the rare transactions that change a customer.
CREATE FUNCTION events_customer_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('clearway_customer_changed', NEW.stream_id::text);
    RETURN NULL;
END;
$$;

CREATE TRIGGER events_customer_changed
    AFTER INSERT ON events
    FOR EACH ROW
    WHEN (NEW.stream_type = 'customer')
    EXECUTE FUNCTION events_customer_changed();
