// What a run does to the image names of an engine that outlives it (a persistent runner's), undone at the
// run's end. The engine is the runner's own: its images were there before the run and are its owner's, and
// other jobs may use it meanwhile, so a run never removes an image that existed before it, nor one that
// something else names or uses. A run claims a name before a command that (re)points it (a pull, a tag, a
// build, a load), which records what the name meant then: the ID it named, or nothing; after the command
// it notes the image the name names (`madeUnder`). At the end each claimed name is put back: a name that did
// not exist is untagged, only while it still names the image the run's command gave it (another job that
// pointed it elsewhere meanwhile keeps its image), and a name that named another image is pointed at that
// image again (`docker tag OLD NAME`). An image the run made goes only when its every tag was the run's:
// untagging is never forced, so an image another job tagged (a pull of the same content under a name of
// its own) or runs a container of stays, and one left untagged is removed only when no name, no container
// and no other job claims it.

/**
 * @typedef {{ name: string, was: string | null, now: string | null, done: string }} NameChange
 *   was: the ID the name named before the run (null: no such name); now: at the end, before it is put back;
 *   done: what was done, in words, for the run's raw output and the log
 */

export class ImageNames {
  /** @type {Map<string, string | null>} claimed names -> the ID each named before the run */
  names = new Map();
  /** @type {Set<string>} IDs of images the run made (not on the engine when the ledger began) */
  made = new Set();
  /** @type {Map<string, Set<string>>} claimed names -> the images the run's commands made under each */
  madeBy = new Map();

  /**
   * @param {import('dockerode')} docker the engine's client
   * @param {Set<string>} before the IDs of every image on the engine when the run began (see `open`)
   */
  constructor(docker, before) {
    this.docker = docker;
    this.before = before;
  }

  /**
   * A ledger for `docker`, with the engine's image IDs as they are now (the run's first job has not begun).
   * @param {import('dockerode')} docker @returns {Promise<ImageNames>}
   */
  static async open(docker) {
    const images = await docker.listImages({ all: true });
    return new ImageNames(docker, new Set(images.map((i) => i.Id)));
  }

  /**
   * Before a command that may point `name` at another image: what it names now is kept (once per name:
   * the first claim is the state before the run). @param {string} name
   */
  async claim(name) {
    if (!this.names.has(name)) this.names.set(name, await idOf(this.docker, name));
  }

  /** After the command: the image `name` now names, if the run made it, is removed at the end. @param {string} name */
  async madeUnder(name) {
    const id = await idOf(this.docker, name);
    if (!id || this.before.has(id)) return;
    this.made.add(id);
    const under = this.madeBy.get(name) ?? new Set();
    this.madeBy.set(name, under.add(id));
  }

  /**
   * Puts every claimed name back and removes the images the run made; never throws (a name or image that
   * cannot be put back is reported in its change).
   * @returns {Promise<NameChange[]>} the names that had changed, with what was done
   */
  async restore() {
    /** @type {NameChange[]} */
    const changes = [];
    for (const [name, was] of this.names) {
      const now = await idOf(this.docker, name);
      if (now === was) continue;
      changes.push({ name, was, now, done: await this.putBack(name, was, now) });
    }
    for (const id of this.made) {
      if (this.before.has(id)) continue;
      // Never forced: an image still named (by another job's tag) or used by a container stays.
      const info = await this.docker
        .getImage(id)
        .inspect()
        .catch(() => null);
      if (!info || (info.RepoTags ?? []).some((t) => t && t !== '<none>:<none>')) continue;
      await this.docker
        .getImage(id)
        .remove()
        .catch(() => {});
    }
    return changes;
  }

  /** @param {string} name @param {string | null} was @param {string | null} now @returns {Promise<string>} */
  async putBack(name, was, now) {
    try {
      if (was) {
        const { repo, tag } = splitName(name);
        if (!tag) return `not put back: a digest reference cannot be tagged (it named ${short(was)})`;
        await this.docker.getImage(was).tag({ repo, tag });
        return `pointed at ${short(was)} again (the run had pointed it at ${now ? short(now) : 'nothing'})`;
      }
      if (!now) return 'gone already';
      if (this.before.has(now)) {
        // The run named an image that was there before: removing its last name would remove the image.
        const tags = (await this.docker.getImage(now).inspect()).RepoTags ?? [];
        if (tags.length <= 1)
          return `kept: it is the only name of ${short(now)}, which was on the engine before the run`;
        await this.docker.getImage(name).remove();
        return `removed (the name only; ${short(now)} was there before and keeps its other names)`;
      }
      // Another job pointed the name at an image of its own after the run's command: that job's now.
      if (!this.madeBy.get(name)?.has(now))
        return `kept: it names ${short(now)}, which no command of the run gave it (another job's)`;
      // Not forced: an image another job also names keeps its other names, one a container uses stays.
      const tags = ((await this.docker.getImage(now).inspect()).RepoTags ?? []).length;
      const inUse = await this.docker
        .getImage(name)
        .remove()
        .then(
          () => null,
          (e) => (/** @type {{ statusCode?: number }} */ (e).statusCode === 409 ? e : Promise.reject(e)),
        );
      if (inUse)
        return `kept: ${short(now)} is in use (${String(inUse.message).split('\n')[0].slice(0, 200)}); not removed by force`;
      return tags > 1
        ? `removed (the name only; ${short(now)} keeps the names others gave it)`
        : `removed, with the image ${short(now)} the run made`;
    } catch (e) {
      return `not put back: ${String(/** @type {Error} */ (e).message).split('\n')[0]}`;
    }
  }
}

/** The ID an image name names on the engine, or null. @param {import('dockerode')} docker @param {string} name */
async function idOf(docker, name) {
  try {
    return /** @type {string} */ ((await docker.getImage(name).inspect()).Id);
  } catch (e) {
    if (/** @type {{ statusCode?: number }} */ (e).statusCode === 404) return null;
    throw e;
  }
}

/**
 * "host:5000/team/app:1" -> repo "host:5000/team/app", tag "1"; no tag -> "latest" (as the engine reads
 * it); a digest reference (…@sha256:…) has no tag to give back.
 * @param {string} name @returns {{ repo: string, tag: string | null }}
 */
export function splitName(name) {
  if (name.includes('@')) return { repo: name.split('@')[0], tag: null };
  const colon = name.lastIndexOf(':');
  if (colon > name.lastIndexOf('/')) return { repo: name.slice(0, colon), tag: name.slice(colon + 1) };
  return { repo: name, tag: 'latest' };
}

/** @param {string} id */
const short = (id) => id.replace(/^sha256:/, '').slice(0, 12);
