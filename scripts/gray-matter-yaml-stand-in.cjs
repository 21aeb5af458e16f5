// What gray-matter's bundled copy gets for `require('js-yaml')` (see build.mjs): its default YAML
// engine is always replaced by the steward's own, so reaching this is a bug, reported as one.
'use strict';

const unused = () => {
  throw new Error("gray-matter's default YAML engine is not bundled: pass the steward's own engine (src/wiki/frontmatter.ts)");
};

module.exports = { safeLoad: unused, safeDump: unused };
