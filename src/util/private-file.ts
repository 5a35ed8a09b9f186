// Writing a file that holds credentials (a kubeconfig with a bearer token): readable by its owner
// only, and never through a symlink another user could have planted at the path.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `text` to `path` with mode 0600. A symlink at `path` is refused; the content goes to a
 * new file in the same directory (O_EXCL, O_NOFOLLOW: created here, by us) that is then renamed
 * over `path`, so no reader ever sees a half-written or wider-readable file.
 */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  const existing = await lstat(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (existing?.isSymbolicLink()) throw new Error(`refusing to write ${path}: it is a symbolic link`);
  if (existing && !existing.isFile()) throw new Error(`refusing to write ${path}: it is not a regular file`);
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    await handle.writeFile(text);
    await handle.chmod(0o600); // the umask cannot widen it, but a restrictive one may have narrowed it
  } catch (err) {
    await handle.close();
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  await handle.close();
  await rename(temp, path);
}
