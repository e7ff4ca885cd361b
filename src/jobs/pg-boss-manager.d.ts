// pg-boss ships no types for its internal Manager module; the queue wraps two of its methods
// (src/jobs/queue.ts says why).
declare module 'pg-boss/src/manager.js' {
  const Manager: { prototype: Record<string, unknown> };
  export default Manager;
}
