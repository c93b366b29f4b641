// Image references as the Docker engine reads them (the grammar of distribution's `reference` package):
//
//   reference  = name [":" tag] ["@" digest]
//   name       = [registry "/"] path
//   registry   = host [":" port]         (the first part of a name is a registry only if it has a "." or a
//                                        ":", is "localhost", or has an upper-case letter, as Docker decides)
//   path       = component ("/" component)*;  component = [a-z0-9]+ (separator [a-z0-9]+)*
//   separator  = "." | "_" | "__" | "-"+
//   tag        = [A-Za-z0-9_][A-Za-z0-9_.-]{0,127}
//   digest     = algorithm ":" hex;  sha256 needs 64 lower-case hex digits
//
// Checked when a workload is loaded, so that a name the engine would refuse mid-run (after pulls and builds)
// is refused before anything runs, with what is expected.

/** A registry host: DNS labels, an IPv4 address, or an IPv6 address in brackets; then an optional port. */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;
const COMPONENT = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const DIGEST = /^[a-z0-9]+(?:[+._-][a-z0-9]+)*:[0-9a-fA-F]{32,}$/;
/** Docker's bound on a name (registry and path). */
const MAX_NAME = 255;

/**
 * @typedef {{ registry: string | null, path: string, tag: string | null, digest: string | null }} ImageReference
 *   registry: "host[:port]" when the name gives one (null: Docker Hub); tag and digest as written
 */

/**
 * Parses an image reference; throws an Error whose message says what is wrong and what is expected
 * (the caller adds where).
 * @param {string} ref @returns {ImageReference}
 */
export function parseReference(ref) {
  let rest = ref;
  /** @type {string | null} */
  let digest = null;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest))
      throw new Error('its digest must be ALGORITHM:HEX, e.g. sha256: and 64 hex digits (`name@sha256:…`)');
    if (digest.startsWith('sha256:') && !/^sha256:[0-9a-f]{64}$/.test(digest))
      throw new Error('a sha256 digest is "sha256:" and 64 lower-case hex digits');
  }
  /** @type {string | null} */
  let tag = null;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag))
      throw new Error(
        'its tag (after the last ":") must be letters, digits, "_", "." or "-", starting with a letter, digit or "_", at most 128',
      );
  }
  if (!rest) throw new Error('it has no name before its tag or digest');
  if (rest.length > MAX_NAME) throw new Error(`its name is longer than ${MAX_NAME} characters`);
  const parts = rest.split('/');
  /** @type {string | null} */
  let registry = null;
  if (parts.length > 1 && (/[.:]/.test(parts[0]) || parts[0] === 'localhost' || parts[0] !== parts[0].toLowerCase())) {
    registry = /** @type {string} */ (parts.shift());
    if (!HOST.test(registry) || Number(registry.split(':').at(-1)) > 65535)
      throw new Error(
        `its registry "${registry}" must be a host name or address with an optional port (registry.example.internal:5000)`,
      );
  }
  for (const part of parts) {
    if (part === '')
      throw new Error('a path component is empty ("//" or a "/" at an end): write acme/base, not acme//base');
    if (part !== part.toLowerCase())
      throw new Error(
        `the repository "${parts.join('/')}" must be lower case (Docker refuses upper-case repository names)`,
      );
    if (!COMPONENT.test(part))
      throw new Error(
        `the path component "${part}" must be lower-case letters and digits, joined by ".", "_", "__" or "-" (not at its start or end)`,
      );
  }
  return { registry, path: parts.join('/'), tag, digest };
}

/**
 * The reference the engine knows an image by once it is pulled, without its digest: Docker cannot tag a
 * digest, so a pinned image is known locally by its name and tag ("latest" when it has none).
 * @param {ImageReference} r
 */
export const taggedName = (r) => `${r.registry ? `${r.registry}/` : ''}${r.path}:${r.tag ?? 'latest'}`;

/**
 * The reference to pull `r` from another registry (the run's own, standing in for the one the name gives):
 * by its digest when pinned (the registry must serve exactly that image), else by its tag.
 * @param {ImageReference} r @param {string} address "host:port"
 */
export const referenceAt = (r, address) => `${address}/${r.path}${r.digest ? `@${r.digest}` : `:${r.tag ?? 'latest'}`}`;
