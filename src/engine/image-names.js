// What a run does to the image names of an engine that outlives it (a persistent runner's), undone at the
// run's end. The engine is the runner's own: its images were there before the run and are its owner's, so
// a run never removes an image that existed before it, whatever name the run gave it. A run claims a name
// before a command that (re)points it (a pull, a tag, a build, a load), which records what the name meant
// then: the ID it named, or nothing. At the end each claimed name is put back: a name that did not exist is
// removed, a name that named another image is pointed at that image again (`docker tag OLD NAME`). The
// images the run made there (IDs that were not on the engine when the run began, and that a claimed name
// named after its command) are removed last, without force: one that something else has tagged or uses
// meanwhile stays.

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
    if (id && !this.before.has(id)) this.made.add(id);
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
      // Forced: the name is the run's, on an image the run made (a stopped container of the job may hold it).
      await this.docker.getImage(name).remove({ force: true });
      return `removed, with the image ${short(now)} the run made`;
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
