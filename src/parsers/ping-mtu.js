// The MTU probe: `ping -M do` (don't fragment) with a payload that fills the interface MTU exactly.
// If a full-size packet cannot cross the bridge (an inner MTU larger than the path's, the classic DinD
// trap), the probe fails: large transfers would stall in the same way.
import { ParseError } from './parse-error.js';

/**
 * @param {string} text what the probe printed: a `mtu=N` line, ping's output, then `exit=N`
 * @returns {{mtu: number, transmitted: number, received: number}}
 */
export function parsePingMtu(text) {
  const lines = text.split('\n');
  let mtu = NaN;
  let transmitted = NaN;
  let received = NaN;
  for (const [i, line] of lines.entries()) {
    let m;
    if ((m = line.match(/^mtu=(\d+)\s*$/))) mtu = Number(m[1]);
    else if ((m = line.match(/(\d+) packets transmitted, (\d+) (?:packets )?received/))) {
      transmitted = Number(m[1]);
      received = Number(m[2]);
    } else if (/message too long|Frag needed|not found|unknown host|Operation not permitted|bad address/i.test(line)) {
      throw new ParseError('ping', `a ${mtu}-byte packet with don't-fragment did not get through`, {
        lineNumber: i + 1,
        line,
      });
    }
  }
  if (!Number.isFinite(mtu))
    throw new ParseError('ping', 'no mtu=N line: the probe could not read the interface MTU', firstLine(lines));
  if (!Number.isFinite(transmitted))
    throw new ParseError('ping', 'no "packets transmitted" summary (is iputils ping installed?)', firstLine(lines));
  if (transmitted === 0 || received < transmitted) {
    const at = lines.findIndex((l) => /packets transmitted/.test(l));
    throw new ParseError(
      'ping',
      `only ${received} of ${transmitted} full-size (${mtu}-byte, don't-fragment) packets came back across the bridge`,
      { lineNumber: at + 1, line: lines[at] },
    );
  }
  return { mtu, transmitted, received };
}

/** @param {string[]} lines */
function firstLine(lines) {
  const i = lines.findIndex((l) => l.trim() !== '');
  return i < 0 ? null : { lineNumber: i + 1, line: lines[i] };
}
