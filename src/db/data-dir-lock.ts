// Only one process may open a PGlite data directory (two would corrupt it). A pid file in
// the directory records the owner; a stale one (its process is gone) is taken over.
import fs from 'node:fs';
import path from 'node:path';

export function lockDataDir(dir: string): () => void {
  const file = path.join(dir, 'contactline.pid');
  try {
    fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
  } catch {
    const owner = Number(fs.readFileSync(file, 'utf8'));
    if (owner && owner !== process.pid && isAlive(owner)) {
      throw new Error(
        `The embedded database in ${dir} is in use by process ${owner}. Stop it first (only one process can open an embedded database), or use PostgreSQL (DATABASE_URL) to run several.`,
      );
    }
    fs.writeFileSync(file, String(process.pid));
  }
  return () => {
    try {
      if (Number(fs.readFileSync(file, 'utf8')) === process.pid) fs.unlinkSync(file);
    } catch {
      // already gone
    }
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
