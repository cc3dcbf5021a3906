-- One feed reader per process hands each projection only the events of the stream types it
-- declares, and a projection with nothing in a window does not commit: its checkpoint moves
-- past other streams' events lazily. So "has the projection passed position P" asks about
-- its own events only: no committed event of one of `stream_types` (NULL: every type) at a
-- position <= P lies after the checkpoint. The runtime records the types when a session of
-- the projection starts.
ALTER TABLE projection_checkpoints ADD COLUMN stream_types text[];
