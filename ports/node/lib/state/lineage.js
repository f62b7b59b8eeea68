'use strict';
// Boot events (docs/state.md § Identity and lineage).

const { currentVersion } = require('./records');

/** The boot event of an open that loaded *loaded* and starts from *identity*, after the *lineage* entries. */
function bootEvent(lineage, loaded, identity) {
  const boots = lineage.map((e) => e.boot).filter((b) => typeof b === 'number' && Number.isInteger(b) && b >= 1 && b <= Number.MAX_SAFE_INTEGER - 1);
  const reason = loaded.fresh ? 'fresh' : loaded.version < currentVersion() ? 'schema_migration' : 'resume';
  return {
    boot: boots.length ? Math.max(...boots) + 1 : 1,
    from_version: loaded.fresh ? null : loaded.version,
    identity,
    parent: loaded.fresh ? null : loaded.identity,
    reason,
    recovered: loaded.recovered,
    to_version: currentVersion(),
  };
}

module.exports = { bootEvent };
