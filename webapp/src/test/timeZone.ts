// Runs a test as a browser in another time zone: Node reads TZ again whenever it changes.
const env = (globalThis as unknown as { process: { env: Record<string, string | undefined> } })
  .process.env;

/** Sets the zone local Date methods use; returns the function that restores the previous one. */
export function setBrowserTimeZone(zone: string): () => void {
  const previous = env.TZ;
  env.TZ = zone;
  return () => {
    if (previous === undefined) delete env.TZ;
    else env.TZ = previous;
  };
}
