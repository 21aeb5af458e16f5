import { createRequire as __wsCreateRequire } from 'node:module'; const require = __wsCreateRequire(import.meta.url);
var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __require = /* @__PURE__ */ ((x) => typeof require !== "undefined" ? require : typeof Proxy !== "undefined" ? new Proxy(x, {
  get: (a, b) => (typeof require !== "undefined" ? require : a)[b]
}) : x)(function(x) {
  if (typeof require !== "undefined") return require.apply(this, arguments);
  throw Error('Dynamic require of "' + x + '" is not supported');
});
var __commonJS = (cb, mod) => function __require2() {
  try {
    return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports;
  } catch (e) {
    throw mod = 0, e;
  }
};
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
  // If the importer is in node compatibility mode or this is not an ESM
  // file that has been converted to a CommonJS file using a Babel-
  // compatible transform (i.e. "__esModule" has not been set), then set
  // "default" to the CommonJS "module.exports" for node compatibility.
  isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
  mod
));

// node_modules/kind-of/index.js
var require_kind_of = __commonJS({
  "node_modules/kind-of/index.js"(exports2, module2) {
    var toString = Object.prototype.toString;
    module2.exports = function kindOf(val) {
      if (val === void 0) return "undefined";
      if (val === null) return "null";
      var type2 = typeof val;
      if (type2 === "boolean") return "boolean";
      if (type2 === "string") return "string";
      if (type2 === "number") return "number";
      if (type2 === "symbol") return "symbol";
      if (type2 === "function") {
        return isGeneratorFn(val) ? "generatorfunction" : "function";
      }
      if (isArray(val)) return "array";
      if (isBuffer(val)) return "buffer";
      if (isArguments(val)) return "arguments";
      if (isDate(val)) return "date";
      if (isError(val)) return "error";
      if (isRegexp(val)) return "regexp";
      switch (ctorName(val)) {
        case "Symbol":
          return "symbol";
        case "Promise":
          return "promise";
        // Set, Map, WeakSet, WeakMap
        case "WeakMap":
          return "weakmap";
        case "WeakSet":
          return "weakset";
        case "Map":
          return "map";
        case "Set":
          return "set";
        // 8-bit typed arrays
        case "Int8Array":
          return "int8array";
        case "Uint8Array":
          return "uint8array";
        case "Uint8ClampedArray":
          return "uint8clampedarray";
        // 16-bit typed arrays
        case "Int16Array":
          return "int16array";
        case "Uint16Array":
          return "uint16array";
        // 32-bit typed arrays
        case "Int32Array":
          return "int32array";
        case "Uint32Array":
          return "uint32array";
        case "Float32Array":
          return "float32array";
        case "Float64Array":
          return "float64array";
      }
      if (isGeneratorObj(val)) {
        return "generator";
      }
      type2 = toString.call(val);
      switch (type2) {
        case "[object Object]":
          return "object";
        // iterators
        case "[object Map Iterator]":
          return "mapiterator";
        case "[object Set Iterator]":
          return "setiterator";
        case "[object String Iterator]":
          return "stringiterator";
        case "[object Array Iterator]":
          return "arrayiterator";
      }
      return type2.slice(8, -1).toLowerCase().replace(/\s/g, "");
    };
    function ctorName(val) {
      return typeof val.constructor === "function" ? val.constructor.name : null;
    }
    function isArray(val) {
      if (Array.isArray) return Array.isArray(val);
      return val instanceof Array;
    }
    function isError(val) {
      return val instanceof Error || typeof val.message === "string" && val.constructor && typeof val.constructor.stackTraceLimit === "number";
    }
    function isDate(val) {
      if (val instanceof Date) return true;
      return typeof val.toDateString === "function" && typeof val.getDate === "function" && typeof val.setDate === "function";
    }
    function isRegexp(val) {
      if (val instanceof RegExp) return true;
      return typeof val.flags === "string" && typeof val.ignoreCase === "boolean" && typeof val.multiline === "boolean" && typeof val.global === "boolean";
    }
    function isGeneratorFn(name, val) {
      return ctorName(name) === "GeneratorFunction";
    }
    function isGeneratorObj(val) {
      return typeof val.throw === "function" && typeof val.return === "function" && typeof val.next === "function";
    }
    function isArguments(val) {
      try {
        if (typeof val.length === "number" && typeof val.callee === "function") {
          return true;
        }
      } catch (err) {
        if (err.message.indexOf("callee") !== -1) {
          return true;
        }
      }
      return false;
    }
    function isBuffer(val) {
      if (val.constructor && typeof val.constructor.isBuffer === "function") {
        return val.constructor.isBuffer(val);
      }
      return false;
    }
  }
});

// node_modules/is-extendable/index.js
var require_is_extendable = __commonJS({
  "node_modules/is-extendable/index.js"(exports2, module2) {
    "use strict";
    module2.exports = function isExtendable(val) {
      return typeof val !== "undefined" && val !== null && (typeof val === "object" || typeof val === "function");
    };
  }
});

// node_modules/extend-shallow/index.js
var require_extend_shallow = __commonJS({
  "node_modules/extend-shallow/index.js"(exports2, module2) {
    "use strict";
    var isObject = require_is_extendable();
    module2.exports = function extend(o) {
      if (!isObject(o)) {
        o = {};
      }
      var len = arguments.length;
      for (var i = 1; i < len; i++) {
        var obj = arguments[i];
        if (isObject(obj)) {
          assign(o, obj);
        }
      }
      return o;
    };
    function assign(a, b) {
      for (var key in b) {
        if (hasOwn(b, key)) {
          a[key] = b[key];
        }
      }
    }
    function hasOwn(obj, key) {
      return Object.prototype.hasOwnProperty.call(obj, key);
    }
  }
});

// node_modules/section-matter/index.js
var require_section_matter = __commonJS({
  "node_modules/section-matter/index.js"(exports2, module2) {
    "use strict";
    var typeOf = require_kind_of();
    var extend = require_extend_shallow();
    module2.exports = function(input, options2) {
      if (typeof options2 === "function") {
        options2 = { parse: options2 };
      }
      var file = toObject(input);
      var defaults = { section_delimiter: "---", parse: identity };
      var opts = extend({}, defaults, options2);
      var delim = opts.section_delimiter;
      var lines = file.content.split(/\r?\n/);
      var sections = null;
      var section = createSection();
      var content = [];
      var stack = [];
      function initSections(val) {
        file.content = val;
        sections = [];
        content = [];
      }
      function closeSection(val) {
        if (stack.length) {
          section.key = getKey(stack[0], delim);
          section.content = val;
          opts.parse(section, sections);
          sections.push(section);
          section = createSection();
          content = [];
          stack = [];
        }
      }
      for (var i = 0; i < lines.length; i++) {
        var line = lines[i];
        var len = stack.length;
        var ln = line.trim();
        if (isDelimiter(ln, delim)) {
          if (ln.length === 3 && i !== 0) {
            if (len === 0 || len === 2) {
              content.push(line);
              continue;
            }
            stack.push(ln);
            section.data = content.join("\n");
            content = [];
            continue;
          }
          if (sections === null) {
            initSections(content.join("\n"));
          }
          if (len === 2) {
            closeSection(content.join("\n"));
          }
          stack.push(ln);
          continue;
        }
        content.push(line);
      }
      if (sections === null) {
        initSections(content.join("\n"));
      } else {
        closeSection(content.join("\n"));
      }
      file.sections = sections;
      return file;
    };
    function isDelimiter(line, delim) {
      if (line.slice(0, delim.length) !== delim) {
        return false;
      }
      if (line.charAt(delim.length + 1) === delim.slice(-1)) {
        return false;
      }
      return true;
    }
    function toObject(input) {
      if (typeOf(input) !== "object") {
        input = { content: input };
      }
      if (typeof input.content !== "string" && !isBuffer(input.content)) {
        throw new TypeError("expected a buffer or string");
      }
      input.content = input.content.toString();
      input.sections = [];
      return input;
    }
    function getKey(val, delim) {
      return val ? val.slice(delim.length).trim() : "";
    }
    function createSection() {
      return { key: "", data: "", content: "" };
    }
    function identity(val) {
      return val;
    }
    function isBuffer(val) {
      if (val && val.constructor && typeof val.constructor.isBuffer === "function") {
        return val.constructor.isBuffer(val);
      }
      return false;
    }
  }
});

// scripts/gray-matter-yaml-stand-in.cjs
var require_gray_matter_yaml_stand_in = __commonJS({
  "scripts/gray-matter-yaml-stand-in.cjs"(exports2, module2) {
    "use strict";
    var unused = () => {
      throw new Error("gray-matter's default YAML engine is not bundled: pass the steward's own engine (src/wiki/frontmatter.ts)");
    };
    module2.exports = { safeLoad: unused, safeDump: unused };
  }
});

// node_modules/gray-matter/lib/engines.js
var require_engines = __commonJS({
  "node_modules/gray-matter/lib/engines.js"(exports, module) {
    "use strict";
    var yaml = require_gray_matter_yaml_stand_in();
    var engines = exports = module.exports;
    engines.yaml = {
      parse: yaml.safeLoad.bind(yaml),
      stringify: yaml.safeDump.bind(yaml)
    };
    engines.json = {
      parse: JSON.parse.bind(JSON),
      stringify: function(obj, options2) {
        const opts = Object.assign({ replacer: null, space: 2 }, options2);
        return JSON.stringify(obj, opts.replacer, opts.space);
      }
    };
    engines.javascript = {
      parse: function parse(str, options, wrap) {
        try {
          if (wrap !== false) {
            str = "(function() {\nreturn " + str.trim() + ";\n}());";
          }
          return eval(str) || {};
        } catch (err) {
          if (wrap !== false && /(unexpected|identifier)/i.test(err.message)) {
            return parse(str, options, false);
          }
          throw new SyntaxError(err);
        }
      },
      stringify: function() {
        throw new Error("stringifying JavaScript is not supported");
      }
    };
  }
});

// node_modules/strip-bom-string/index.js
var require_strip_bom_string = __commonJS({
  "node_modules/strip-bom-string/index.js"(exports2, module2) {
    "use strict";
    module2.exports = function(str3) {
      if (typeof str3 === "string" && str3.charAt(0) === "\uFEFF") {
        return str3.slice(1);
      }
      return str3;
    };
  }
});

// node_modules/gray-matter/lib/utils.js
var require_utils = __commonJS({
  "node_modules/gray-matter/lib/utils.js"(exports2) {
    "use strict";
    var stripBom = require_strip_bom_string();
    var typeOf = require_kind_of();
    exports2.define = function(obj, key, val) {
      Reflect.defineProperty(obj, key, {
        enumerable: false,
        configurable: true,
        writable: true,
        value: val
      });
    };
    exports2.isBuffer = function(val) {
      return typeOf(val) === "buffer";
    };
    exports2.isObject = function(val) {
      return typeOf(val) === "object";
    };
    exports2.toBuffer = function(input) {
      return typeof input === "string" ? Buffer.from(input) : input;
    };
    exports2.toString = function(input) {
      if (exports2.isBuffer(input)) return stripBom(String(input));
      if (typeof input !== "string") {
        throw new TypeError("expected input to be a string or buffer");
      }
      return stripBom(input);
    };
    exports2.arrayify = function(val) {
      return val ? Array.isArray(val) ? val : [val] : [];
    };
    exports2.startsWith = function(str3, substr, len) {
      if (typeof len !== "number") len = substr.length;
      return str3.slice(0, len) === substr;
    };
  }
});

// node_modules/gray-matter/lib/defaults.js
var require_defaults = __commonJS({
  "node_modules/gray-matter/lib/defaults.js"(exports2, module2) {
    "use strict";
    var engines2 = require_engines();
    var utils = require_utils();
    module2.exports = function(options2) {
      const opts = Object.assign({}, options2);
      opts.delimiters = utils.arrayify(opts.delims || opts.delimiters || "---");
      if (opts.delimiters.length === 1) {
        opts.delimiters.push(opts.delimiters[0]);
      }
      opts.language = (opts.language || opts.lang || "yaml").toLowerCase();
      opts.engines = Object.assign({}, engines2, opts.parsers, opts.engines);
      return opts;
    };
  }
});

// node_modules/gray-matter/lib/engine.js
var require_engine = __commonJS({
  "node_modules/gray-matter/lib/engine.js"(exports2, module2) {
    "use strict";
    module2.exports = function(name, options2) {
      let engine = options2.engines[name] || options2.engines[aliase(name)];
      if (typeof engine === "undefined") {
        throw new Error('gray-matter engine "' + name + '" is not registered');
      }
      if (typeof engine === "function") {
        engine = { parse: engine };
      }
      return engine;
    };
    function aliase(name) {
      switch (name.toLowerCase()) {
        case "js":
        case "javascript":
          return "javascript";
        case "coffee":
        case "coffeescript":
        case "cson":
          return "coffee";
        case "yaml":
        case "yml":
          return "yaml";
        default: {
          return name;
        }
      }
    }
  }
});

// node_modules/gray-matter/lib/stringify.js
var require_stringify = __commonJS({
  "node_modules/gray-matter/lib/stringify.js"(exports2, module2) {
    "use strict";
    var typeOf = require_kind_of();
    var getEngine = require_engine();
    var defaults = require_defaults();
    module2.exports = function(file, data, options2) {
      if (data == null && options2 == null) {
        switch (typeOf(file)) {
          case "object":
            data = file.data;
            options2 = {};
            break;
          case "string":
            return file;
          default: {
            throw new TypeError("expected file to be a string or object");
          }
        }
      }
      const str3 = file.content;
      const opts = defaults(options2);
      if (data == null) {
        if (!opts.data) return file;
        data = opts.data;
      }
      const language = file.language || opts.language;
      const engine = getEngine(language, opts);
      if (typeof engine.stringify !== "function") {
        throw new TypeError('expected "' + language + '.stringify" to be a function');
      }
      data = Object.assign({}, file.data, data);
      const open = opts.delimiters[0];
      const close = opts.delimiters[1];
      const matter2 = engine.stringify(data, options2).trim();
      let buf = "";
      if (matter2 !== "{}") {
        buf = newline(open) + newline(matter2) + newline(close);
      }
      if (typeof file.excerpt === "string" && file.excerpt !== "") {
        if (str3.indexOf(file.excerpt.trim()) === -1) {
          buf += newline(file.excerpt) + newline(close);
        }
      }
      return buf + newline(str3);
    };
    function newline(str3) {
      return str3.slice(-1) !== "\n" ? str3 + "\n" : str3;
    }
  }
});

// node_modules/gray-matter/lib/excerpt.js
var require_excerpt = __commonJS({
  "node_modules/gray-matter/lib/excerpt.js"(exports2, module2) {
    "use strict";
    var defaults = require_defaults();
    module2.exports = function(file, options2) {
      const opts = defaults(options2);
      if (file.data == null) {
        file.data = {};
      }
      if (typeof opts.excerpt === "function") {
        return opts.excerpt(file, opts);
      }
      const sep = file.data.excerpt_separator || opts.excerpt_separator;
      if (sep == null && (opts.excerpt === false || opts.excerpt == null)) {
        return file;
      }
      const delimiter = typeof opts.excerpt === "string" ? opts.excerpt : sep || opts.delimiters[0];
      const idx = file.content.indexOf(delimiter);
      if (idx !== -1) {
        file.excerpt = file.content.slice(0, idx);
      }
      return file;
    };
  }
});

// node_modules/gray-matter/lib/to-file.js
var require_to_file = __commonJS({
  "node_modules/gray-matter/lib/to-file.js"(exports2, module2) {
    "use strict";
    var typeOf = require_kind_of();
    var stringify = require_stringify();
    var utils = require_utils();
    module2.exports = function(file) {
      if (typeOf(file) !== "object") {
        file = { content: file };
      }
      if (typeOf(file.data) !== "object") {
        file.data = {};
      }
      if (file.contents && file.content == null) {
        file.content = file.contents;
      }
      utils.define(file, "orig", utils.toBuffer(file.content));
      utils.define(file, "language", file.language || "");
      utils.define(file, "matter", file.matter || "");
      utils.define(file, "stringify", function(data, options2) {
        if (options2 && options2.language) {
          file.language = options2.language;
        }
        return stringify(file, data, options2);
      });
      file.content = utils.toString(file.content);
      file.isEmpty = false;
      file.excerpt = "";
      return file;
    };
  }
});

// node_modules/gray-matter/lib/parse.js
var require_parse = __commonJS({
  "node_modules/gray-matter/lib/parse.js"(exports2, module2) {
    "use strict";
    var getEngine = require_engine();
    var defaults = require_defaults();
    module2.exports = function(language, str3, options2) {
      const opts = defaults(options2);
      const engine = getEngine(language, opts);
      if (typeof engine.parse !== "function") {
        throw new TypeError('expected "' + language + '.parse" to be a function');
      }
      return engine.parse(str3, opts);
    };
  }
});

// node_modules/gray-matter/index.js
var require_gray_matter = __commonJS({
  "node_modules/gray-matter/index.js"(exports2, module2) {
    "use strict";
    var fs = __require("fs");
    var sections = require_section_matter();
    var defaults = require_defaults();
    var stringify = require_stringify();
    var excerpt = require_excerpt();
    var engines2 = require_engines();
    var toFile = require_to_file();
    var parse2 = require_parse();
    var utils = require_utils();
    function matter2(input, options2) {
      if (input === "") {
        return { data: {}, content: input, excerpt: "", orig: input };
      }
      let file = toFile(input);
      const cached = matter2.cache[file.content];
      if (!options2) {
        if (cached) {
          file = Object.assign({}, cached);
          file.orig = cached.orig;
          return file;
        }
        matter2.cache[file.content] = file;
      }
      return parseMatter(file, options2);
    }
    function parseMatter(file, options2) {
      const opts = defaults(options2);
      const open = opts.delimiters[0];
      const close = "\n" + opts.delimiters[1];
      let str3 = file.content;
      if (opts.language) {
        file.language = opts.language;
      }
      const openLen = open.length;
      if (!utils.startsWith(str3, open, openLen)) {
        excerpt(file, opts);
        return file;
      }
      if (str3.charAt(openLen) === open.slice(-1)) {
        return file;
      }
      str3 = str3.slice(openLen);
      const len = str3.length;
      const language = matter2.language(str3, opts);
      if (language.name) {
        file.language = language.name;
        str3 = str3.slice(language.raw.length);
      }
      let closeIndex = str3.indexOf(close);
      if (closeIndex === -1) {
        closeIndex = len;
      }
      file.matter = str3.slice(0, closeIndex);
      const block = file.matter.replace(/^\s*#[^\n]+/gm, "").trim();
      if (block === "") {
        file.isEmpty = true;
        file.empty = file.content;
        file.data = {};
      } else {
        file.data = parse2(file.language, file.matter, opts);
      }
      if (closeIndex === len) {
        file.content = "";
      } else {
        file.content = str3.slice(closeIndex + close.length);
        if (file.content[0] === "\r") {
          file.content = file.content.slice(1);
        }
        if (file.content[0] === "\n") {
          file.content = file.content.slice(1);
        }
      }
      excerpt(file, opts);
      if (opts.sections === true || typeof opts.section === "function") {
        sections(file, opts.section);
      }
      return file;
    }
    matter2.engines = engines2;
    matter2.stringify = function(file, data, options2) {
      if (typeof file === "string") file = matter2(file, options2);
      return stringify(file, data, options2);
    };
    matter2.read = function(filepath, options2) {
      const str3 = fs.readFileSync(filepath, "utf8");
      const file = matter2(str3, options2);
      file.path = filepath;
      return file;
    };
    matter2.test = function(str3, options2) {
      return utils.startsWith(str3, defaults(options2).delimiters[0]);
    };
    matter2.language = function(str3, options2) {
      const opts = defaults(options2);
      const open = opts.delimiters[0];
      if (matter2.test(str3)) {
        str3 = str3.slice(open.length);
      }
      const language = str3.slice(0, str3.search(/\r?\n/));
      return {
        raw: language,
        name: language ? language.trim() : ""
      };
    };
    matter2.cache = {};
    matter2.clearCache = function() {
      matter2.cache = {};
    };
    module2.exports = matter2;
  }
});

// src/ladder/catalog-worker.ts
import { parentPort, workerData } from "node:worker_threads";

// src/wiki/tree.ts
import { closeSync, constants, fstatSync, openSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";

// src/markdown/body.ts
var lfLineBreaks = (text) => text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
var DELIMITER = "---";
var DOCUMENT_END = "...";
function withoutTrailingBlanks(text, start, end) {
  let last = end;
  while (last > start && (text[last - 1] === " " || text[last - 1] === "	" || text[last - 1] === "\r")) last--;
  return text.slice(start, last);
}
function frontmatterBlock(text) {
  const firstEnd = lineEnd(text, 0);
  if (withoutTrailingBlanks(text, 0, firstEnd) !== DELIMITER || firstEnd === text.length) return void 0;
  for (let start = firstEnd + 1, line = 2; start <= text.length; start = lineEnd(text, start) + 1, line++) {
    const end = lineEnd(text, start);
    const content = withoutTrailingBlanks(text, start, end);
    if (content === DELIMITER || content === DOCUMENT_END) {
      const block = start === firstEnd + 1 ? "" : text.slice(firstEnd + 1, start - 1);
      return { block: block.endsWith("\r") ? block.slice(0, -1) : block, body: { offset: Math.min(end + 1, text.length), line: line + 1 } };
    }
    if (end === text.length) break;
  }
  return void 0;
}
var lineEnd = (text, start) => {
  const end = text.indexOf("\n", start);
  return end < 0 ? text.length : end;
};
var bodyStart = (text) => frontmatterBlock(text)?.body ?? { offset: 0, line: 1 };
var bodyOf = (text) => text.slice(bodyStart(text).offset);
var OPENER_WITH_LANGUAGE = /^---[ \t]*([A-Za-z][\w-]*)[ \t]*\n/;
var openerLanguage = (text) => OPENER_WITH_LANGUAGE.exec(text)?.[1];

// src/markdown/py-strip.ts
var PY_WHITESPACE = /* @__PURE__ */ new Set([
  9,
  10,
  11,
  12,
  13,
  28,
  29,
  30,
  31,
  32,
  133,
  160,
  5760,
  8192,
  8193,
  8194,
  8195,
  8196,
  8197,
  8198,
  8199,
  8200,
  8201,
  8202,
  8232,
  8233,
  8239,
  8287,
  12288
]);
var isPyWhitespace = (s, i) => PY_WHITESPACE.has(s.charCodeAt(i));
function pyLStrip(s) {
  let start = 0;
  while (start < s.length && isPyWhitespace(s, start)) start++;
  return start === 0 ? s : s.slice(start);
}
function pyRStrip(s, chars) {
  let end = s.length;
  if (chars === void 0) while (end > 0 && isPyWhitespace(s, end - 1)) end--;
  else while (end > 0 && chars.includes(s[end - 1])) end--;
  return end === s.length ? s : s.slice(0, end);
}
var pyStrip = (s) => pyRStrip(pyLStrip(s));

// src/wiki/python-compat.ts
var isPyDict = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
function pySplitLines(s) {
  if (s === "") return [];
  const lines = s.split(/\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]/);
  if (/(?:\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029])$/.test(s)) lines.pop();
  return lines;
}
var INT_RE = /^[+-]?(?:0(?:_?0)*|[1-9](?:_?[0-9])*|0[0-9](?:_?[0-9])*)$/;
var DEC_DIGITS = "[0-9](?:_?[0-9])*";
var FLOAT_RE = new RegExp(`^[+-]?(?:(?:${DEC_DIGITS})?\\.${DEC_DIGITS}|${DEC_DIGITS}\\.?)(?:[eE][+-]?${DEC_DIGITS})?$`);
var FLOAT_SPECIAL_RE = /^([+-]?)(nan|inf|infinity)$/i;
function pyParseInt(s) {
  if (!INT_RE.test(s)) return void 0;
  return BigInt(s.replace(/_/g, ""));
}
function pyParseFloat(raw) {
  const s = pyStrip(raw);
  const special = FLOAT_SPECIAL_RE.exec(s);
  if (special) {
    if (special[2].toLowerCase() === "nan") return NaN;
    return special[1] === "-" ? -Infinity : Infinity;
  }
  if (!FLOAT_RE.test(s)) return void 0;
  return Number(s.replace(/_/g, ""));
}
function pyFloatRepr(x) {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mantissa, expText] = x.toExponential().split("e");
  const exp = Number(expText);
  if (exp < -4 || exp >= 16) {
    return `${mantissa}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  const digits = mantissa.replace("-", "").replace(".", "");
  const sign = x < 0 ? "-" : "";
  if (exp >= digits.length - 1) return `${sign}${digits}${"0".repeat(exp - digits.length + 1)}.0`;
  if (exp >= 0) return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
}
function pyStrRepr(s) {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0);
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "	") out += "\\t";
    else if (cp < 32 || cp === 127) out += `\\x${cp.toString(16).padStart(2, "0")}`;
    else if (!isPrintable(ch, cp)) {
      out += cp <= 255 ? `\\x${cp.toString(16).padStart(2, "0")}` : cp <= 65535 ? `\\u${cp.toString(16).padStart(4, "0")}` : `\\U${cp.toString(16).padStart(8, "0")}`;
    } else out += ch;
  }
  return out + quote;
}
var NON_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;
var isPrintable = (ch, cp) => cp === 32 || !NON_PRINTABLE.test(ch);
function pyRepr(v) {
  if (typeof v === "string") return pyStrRepr(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  if (isPyDict(v))
    return `{${Object.entries(v).map(([k, val]) => `${pyStrRepr(k)}: ${pyRepr(val)}`).join(", ")}}`;
  return pyStr(v);
}
function pyStr(v) {
  if (v === null) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return pyFloatRepr(v);
  if (typeof v === "string") return v;
  return pyRepr(v);
}

// src/wiki/tree.ts
var utf8 = new TextDecoder("utf-8", { fatal: true });
function decodePageBytes(bytes) {
  if (bytes.includes(0)) return { ok: false, reason: "binary file (contains NUL bytes), not a markdown page", problem: "binary" };
  let text;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, reason: `not valid UTF-8 text (first bad byte at offset ${firstInvalidUtf8Offset(bytes)})`, problem: "not-utf8" };
  }
  return { ok: true, text: lfLineBreaks(text) };
}
function firstInvalidUtf8Offset(bytes) {
  let lo = 0;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = lo + hi >> 1;
    try {
      utf8.decode(bytes.subarray(0, mid + 1));
      lo = mid + 1;
    } catch {
      hi = mid;
    }
  }
  return lo;
}
function readFromDisk(file, options2) {
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const size = fstatSync(fd).size;
    if (options2?.maxBytes !== void 0 && size > options2.maxBytes) return tooLarge(size, options2.maxBytes);
    return decodePageBytes(readFileSync(fd));
  } finally {
    closeSync(fd);
  }
}
function diskReader(absoluteRoot) {
  return async (paths2, visit, options2) => {
    for (const rel of paths2) {
      let file;
      try {
        file = readFromDisk(path.join(absoluteRoot, rel), options2);
      } catch (error) {
        file = { ok: false, reason: `cannot read: ${error.message}` };
      }
      visit(rel, file);
    }
  };
}
var MEGABYTE = 1024 * 1024;
var tooLarge = (bytes, limit) => ({
  ok: false,
  reason: `page is ${(bytes / MEGABYTE).toFixed(1)} MB (${bytes.toLocaleString("en-US")} bytes), over the ${limit / MEGABYTE} MB limit for one page: not read further; split it into smaller pages`,
  problem: "too-large"
});

// src/wiki/page-limit.ts
var MAX_PAGE_BYTES = 2 * 1024 * 1024;
function withinPageLimit(file) {
  if (!file.ok || file.text.length <= MAX_PAGE_BYTES / 3) return file;
  const bytes = Buffer.byteLength(file.text);
  return bytes > MAX_PAGE_BYTES ? tooLarge(bytes, MAX_PAGE_BYTES) : file;
}
var readPages = (tree, paths2, visit) => tree.readEach(paths2, (path2, file) => visit(path2, withinPageLimit(file)), { maxBytes: MAX_PAGE_BYTES });

// src/markdown/code.ts
var CODE_INDENT = 4;
var MAX_MARKER_INDENT = 3;
function indentation(line) {
  let columns = 0;
  let end = 0;
  for (; end < line.length; end++) {
    if (line[end] === " ") columns++;
    else if (line[end] === "	") columns += 4 - columns % 4;
    else break;
  }
  return { columns, end };
}
function fenceOpening(line) {
  const { columns, end } = indentation(line);
  const marker = line[end];
  if (columns > MAX_MARKER_INDENT || marker !== "`" && marker !== "~") return void 0;
  let length = 0;
  while (line[end + length] === marker) length++;
  if (length < 3 || marker === "`" && line.includes("`", end + length)) return void 0;
  return { marker, length };
}
function closesFence(line, fence) {
  const { columns, end } = indentation(line);
  if (columns > MAX_MARKER_INDENT) return false;
  let length = 0;
  while (line[end + length] === fence.marker) length++;
  return length >= fence.length && line.slice(end + length).trim() === "";
}
var lineEnd2 = (text, start) => {
  const end = text.indexOf("\n", start);
  return end < 0 ? text.length : end;
};
function fencedBlockEnd(markdown, lineStart) {
  const { columns, end: indent } = indentation(markdown.slice(lineStart, lineStart + MAX_MARKER_INDENT + 1));
  const marker = markdown[lineStart + indent];
  if (columns > MAX_MARKER_INDENT || marker !== "`" && marker !== "~") return void 0;
  const fence = fenceOpening(markdown.slice(lineStart, lineEnd2(markdown, lineStart)));
  if (!fence) return void 0;
  for (let start = lineEnd2(markdown, lineStart) + 1; start <= markdown.length; start = lineEnd2(markdown, start) + 1) {
    const end = lineEnd2(markdown, start);
    if (closesFence(markdown.slice(start, end), fence)) return end;
    if (end === markdown.length) break;
  }
  return markdown.length;
}
var spanContent = (text, span) => text.slice(span.start + span.run, span.end - span.run);
var BACKTICK_RUN_OR_BLANK_LINE = /`+|\n[ \t\r]*(?=\n)/g;
function codeSpanReader(text) {
  const starts = [];
  const lengths = [];
  const paragraphEnds = [];
  const runsOfLength = /* @__PURE__ */ new Map();
  for (const m of text.matchAll(BACKTICK_RUN_OR_BLANK_LINE)) {
    if (m[0][0] !== "`") {
      while (paragraphEnds.length < starts.length) paragraphEnds.push(m.index);
      continue;
    }
    const runs = runsOfLength.get(m[0].length);
    if (runs) runs.push(starts.length);
    else runsOfLength.set(m[0].length, [starts.length]);
    starts.push(m.index);
    lengths.push(m[0].length);
  }
  while (paragraphEnds.length < starts.length) paragraphEnds.push(text.length);
  const cursors = /* @__PURE__ */ new Map();
  const nextRunOfLength = (length, after) => {
    const runs = runsOfLength.get(length);
    if (!runs) return void 0;
    let k = cursors.get(length) ?? 0;
    while (k < runs.length && runs[k] <= after) k++;
    cursors.set(length, k);
    return runs[k];
  };
  let run = 0;
  return (at) => {
    if (text[at] !== "`") return void 0;
    while (starts[run] + lengths[run] <= at) run++;
    const runEnd = starts[run] + lengths[run];
    let backslashes = 0;
    while (text[at - 1 - backslashes] === "\\") backslashes++;
    const open = backslashes % 2 === 1 ? at + 1 : at;
    const length = runEnd - open;
    const close = length > 0 ? nextRunOfLength(length, run) : void 0;
    if (close === void 0 || starts[close] >= paragraphEnds[run]) return { end: runEnd };
    const end = starts[close] + length;
    return { end, span: { start: open, end, run: length } };
  };
}
function codeSpans(text) {
  if (!text.includes("`")) return [];
  const read = codeSpanReader(text);
  const spans = [];
  for (let at = text.indexOf("`"); at >= 0; ) {
    const { end, span } = read(at);
    if (span) spans.push(span);
    at = text.indexOf("`", end);
  }
  return spans;
}
function replaceCodeSpans(text, replace) {
  let out = "";
  let at = 0;
  for (const span of codeSpans(text)) {
    out += text.slice(at, span.start) + replace(text.slice(span.start, span.end), spanContent(text, span));
    at = span.end;
  }
  return at === 0 ? text : out + text.slice(at);
}
var blank = (s) => s.replace(/[^\n]/g, " ");
function fencedBlocks(markdown) {
  const blocks = [];
  for (let start = 0; start < markdown.length; ) {
    const end = fencedBlockEnd(markdown, start);
    if (end !== void 0) blocks.push({ start, end });
    start = lineEnd2(markdown, end ?? start) + 1;
  }
  return blocks;
}
function blankFences(markdown, blocks) {
  let out = "";
  let at = 0;
  for (const block of blocks) {
    out += markdown.slice(at, block.start) + blank(markdown.slice(block.start, block.end));
    at = block.end;
  }
  return at === 0 ? markdown : out + markdown.slice(at);
}
var mayHoldCode = (markdown) => markdown.includes("`") || markdown.includes("~~~");
function blankCode(markdown) {
  if (!mayHoldCode(markdown)) return markdown;
  return replaceCodeSpans(blankFences(markdown, fencedBlocks(markdown)), blank);
}

// src/markdown/blocks.ts
var MAX_HEADING_LEVEL = 6;
var isBlankLine = (line) => /^[ \t]*$/.test(line);
var trimSpaces = (text) => pyRStrip(text, " 	").replace(/^[ \t]+/, "");
function atxHeading(line) {
  const { columns, end } = indentation(line);
  if (columns > MAX_MARKER_INDENT || line[end] !== "#") return void 0;
  let level = 0;
  while (level <= MAX_HEADING_LEVEL && line[end + level] === "#") level++;
  const rest = line.slice(end + level);
  if (level > MAX_HEADING_LEVEL || rest !== "" && rest[0] !== " " && rest[0] !== "	") return void 0;
  const text = pyRStrip(rest, " 	");
  const open = pyRStrip(text, "#");
  const closed = open.length < text.length && (open === "" || open.endsWith(" ") || open.endsWith("	"));
  return { level, text: trimSpaces(closed ? open : text) };
}
function setextLevel(line) {
  const { columns, end } = indentation(line);
  const marker = line[end];
  if (columns > MAX_MARKER_INDENT || marker !== "=" && marker !== "-") return void 0;
  let length = 0;
  while (line[end + length] === marker) length++;
  if (!isBlankLine(line.slice(end + length))) return void 0;
  return marker === "=" ? 1 : 2;
}
function isThematicBreak(line) {
  const { columns, end } = indentation(line);
  const marker = line[end];
  if (columns > MAX_MARKER_INDENT || marker !== "-" && marker !== "*" && marker !== "_") return false;
  let count = 0;
  for (let k = end; k < line.length; k++) {
    if (line[k] === marker) count++;
    else if (line[k] !== " " && line[k] !== "	") return false;
  }
  return count >= 3;
}
var TABLE_RULE_TRIMMED = /^\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?$/;
var isTableRule = (line) => line.includes("|") && TABLE_RULE_TRIMMED.test(line.trim());
function isPipedRow(line) {
  const trimmed = line.trim();
  return trimmed.length >= 2 && trimmed.startsWith("|") && trimmed.endsWith("|");
}
var LIST_MARKER = /^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/;
function listItemContent(line) {
  const marker = LIST_MARKER.exec(line);
  return marker ? line.slice(marker[0].length) : void 0;
}
var QUOTE_MARKERS = /^(?:>[ \t]?)+/;
function quoteContent(line) {
  const { columns, end } = indentation(line);
  if (columns > MAX_MARKER_INDENT || line[end] !== ">") return void 0;
  return line.slice(end).replace(QUOTE_MARKERS, "");
}
var opensComment = (line) => /^[ \t]*<!--/.test(line) && !line.includes("-->");
var BlockReader = class {
  constructor(lines) {
    this.lines = lines;
  }
  lines;
  blocks = [];
  open;
  /** Inside a fence or an HTML comment: the test of the line that ends it. */
  insideUntil;
  indentedCode = false;
  inTable = false;
  /** After a list item, until a block starts at the margin: indented lines continue the list, they are no code. */
  inList = false;
  read(i) {
    const line = this.line(i);
    const n = i + 1;
    if (this.insideUntil) {
      if (this.insideUntil(line)) this.insideUntil = void 0;
      return;
    }
    if (isBlankLine(line)) {
      this.close();
      this.inTable = false;
      return;
    }
    const { columns } = indentation(line);
    if (columns >= CODE_INDENT && !this.open && (this.indentedCode || !this.inList)) {
      this.indentedCode = true;
      return;
    }
    this.indentedCode = false;
    const item = listItemContent(line);
    if (columns === 0 && item === void 0 && !this.open) this.inList = false;
    const fence = fenceOpening(line);
    if (fence || opensComment(line)) {
      this.close();
      this.insideUntil = fence ? (l) => closesFence(l, fence) : (l) => l.includes("-->");
      return;
    }
    const heading = atxHeading(line);
    if (heading) return this.emit("heading", heading.text, n, heading.level);
    const underline = this.open?.kind === "paragraph" ? setextLevel(line) : void 0;
    if (underline) {
      const paragraph = this.open;
      this.open = void 0;
      return this.emit("heading", paragraph.lines.join(" "), paragraph.line, underline);
    }
    if (isThematicBreak(line)) return this.close();
    if (isTableRule(line)) {
      this.inTable = true;
      return this.close();
    }
    const header = line.includes("|") && isTableRule(this.line(i + 1));
    if (isPipedRow(line) || this.inTable && line.includes("|")) return this.emit(header ? "table-header" : "table-row", line.trim(), n, 0);
    if (item !== void 0) return this.start("item", item.trim(), n);
    const quoted = quoteContent(line)?.trim();
    if (quoted !== void 0) {
      if (quoted === "") this.close();
      else if (this.open?.kind === "quote") this.open.lines.push(quoted);
      else this.start("quote", quoted, n);
      return;
    }
    if (header && !this.open) return this.emit("table-header", line.trim(), n, 0);
    if (this.open) this.open.lines.push(line.trim());
    else this.start("paragraph", line.trim(), n);
  }
  finish() {
    this.close();
    return this.blocks;
  }
  /** A line without the `\r` of a CRLF line break; past the last line, ''. */
  line(i) {
    const line = this.lines[i] ?? "";
    return line.endsWith("\r") ? line.slice(0, -1) : line;
  }
  start(kind, text, line) {
    this.close();
    this.open = { kind, lines: [text], line };
    if (kind === "item") this.inList = true;
  }
  emit(kind, text, line, level) {
    this.close();
    this.blocks.push({ kind, text, line, level });
  }
  close() {
    if (this.open) this.blocks.push({ kind: this.open.kind, text: this.open.lines.join("\n"), line: this.open.line, level: 0 });
    this.open = void 0;
  }
};
function markdownBlocks(lines, from = 0) {
  const reader = new BlockReader(lines);
  for (let i = from; i < lines.length; i++) reader.read(i);
  return reader.finish();
}

// src/markdown/links.ts
var isSpace = (c) => c === 32 || c >= 9 && c <= 13 || c === 160 || c === 5760 || c >= 8192 && c <= 8202 || c === 8232 || c === 8233 || c === 8239 || c === 8287 || c === 12288 || c === 65279;
function markdownLinks(text) {
  const links = [];
  const n = text.length;
  let open = -1;
  let nextOpen = text.indexOf("[");
  let close = text.indexOf("]");
  let failedRunStart = -1;
  let failedRunEnd = -1;
  while (close >= 0) {
    if (nextOpen >= 0 && nextOpen < close) {
      if (open < 0) open = nextOpen;
      nextOpen = text.indexOf("[", nextOpen + 1);
      continue;
    }
    const start = open;
    open = -1;
    let resume = close + 1;
    const from = close + 2;
    if (start >= 0 && text.charCodeAt(close + 1) === 40 && !(from >= failedRunStart && from <= failedRunEnd)) {
      let end = from;
      while (end < n && text.charCodeAt(end) !== 41 && !isSpace(text.charCodeAt(end))) end++;
      if (end === from || end === n || text.charCodeAt(end) !== 41) [failedRunStart, failedRunEnd] = [from, end];
      else {
        links.push({ index: start, text: text.slice(start + 1, close), target: text.slice(from, end) });
        resume = end + 1;
        if (nextOpen >= 0 && nextOpen < resume) nextOpen = text.indexOf("[", resume);
      }
    }
    close = text.indexOf("]", resume);
  }
  return links;
}
var WIKILINK = /!?\[\[([^[\]\n|#]*)(?:#[^[\]\n|]*)?(?:\|([^[\]\n]*))?\]\]/g;
function findWikilinks(markdown) {
  if (!markdown.includes("[[")) return [];
  const links = [];
  for (const m of blankCode(markdown).matchAll(WIKILINK)) {
    const target = m[1].trim();
    if (target === "") continue;
    const text = m[2]?.trim();
    links.push(text ? { target, text } : { target });
  }
  return links;
}

// src/markdown/upstream-dialect.ts
var OPENER = "---\n";
var CLOSER = "\n---\n";
function upstreamFrontmatterBlock(text) {
  if (!text.startsWith(OPENER)) return void 0;
  const close = text.indexOf(CLOSER);
  if (close < 0) return void 0;
  const head = text.slice(0, close);
  return head.startsWith(OPENER) ? head.slice(OPENER.length) : head.slice(CLOSER.length);
}
var DESCRIPTION_LIMIT = 200;
function codePointPrefix(text, count) {
  let at = 0;
  for (let k = 0; k < count; k++) {
    if (at >= text.length) return void 0;
    at += text.codePointAt(at) > 65535 ? 2 : 1;
  }
  return at >= text.length ? void 0 : text.slice(0, at);
}
function upstreamDescription(text) {
  const close = text.indexOf(CLOSER, OPENER.length);
  if (close < 0) return "";
  const body = pyStrip(text.slice(close + CLOSER.length));
  const blankLine = body.indexOf("\n\n");
  const paragraph = pyStrip((blankLine < 0 ? body : body.slice(0, blankLine)).replaceAll("\n", " "));
  const cut = codePointPrefix(paragraph, DESCRIPTION_LIMIT);
  return cut === void 0 ? paragraph : `${cut}...`;
}

// src/wiki/frontmatter.ts
var import_gray_matter = __toESM(require_gray_matter(), 1);

// node_modules/js-yaml/dist/js-yaml.mjs
function getDefaultExportFromCjs(x) {
  return x && x.__esModule && Object.prototype.hasOwnProperty.call(x, "default") ? x["default"] : x;
}
var jsYaml = {};
var loader = {};
var common = {};
var hasRequiredCommon;
function requireCommon() {
  if (hasRequiredCommon) return common;
  hasRequiredCommon = 1;
  function isNothing(subject) {
    return typeof subject === "undefined" || subject === null;
  }
  function isObject(subject) {
    return typeof subject === "object" && subject !== null;
  }
  function toArray(sequence) {
    if (Array.isArray(sequence)) return sequence;
    else if (isNothing(sequence)) return [];
    return [sequence];
  }
  function extend(target, source) {
    if (source) {
      const sourceKeys = Object.keys(source);
      for (let index = 0, length = sourceKeys.length; index < length; index += 1) {
        const key = sourceKeys[index];
        target[key] = source[key];
      }
    }
    return target;
  }
  function repeat(string, count) {
    let result = "";
    for (let cycle = 0; cycle < count; cycle += 1) {
      result += string;
    }
    return result;
  }
  function isNegativeZero(number) {
    return number === 0 && Number.NEGATIVE_INFINITY === 1 / number;
  }
  common.isNothing = isNothing;
  common.isObject = isObject;
  common.toArray = toArray;
  common.repeat = repeat;
  common.isNegativeZero = isNegativeZero;
  common.extend = extend;
  return common;
}
var exception;
var hasRequiredException;
function requireException() {
  if (hasRequiredException) return exception;
  hasRequiredException = 1;
  function formatError(exception2, compact) {
    let where = "";
    const message = exception2.reason || "(unknown reason)";
    if (!exception2.mark) return message;
    if (exception2.mark.name) {
      where += 'in "' + exception2.mark.name + '" ';
    }
    where += "(" + (exception2.mark.line + 1) + ":" + (exception2.mark.column + 1) + ")";
    if (!compact && exception2.mark.snippet) {
      where += "\n\n" + exception2.mark.snippet;
    }
    return message + " " + where;
  }
  function YAMLException2(reason, mark) {
    Error.call(this);
    this.name = "YAMLException";
    this.reason = reason;
    this.mark = mark;
    this.message = formatError(this, false);
    if (Error.captureStackTrace) {
      Error.captureStackTrace(this, this.constructor);
    } else {
      this.stack = new Error().stack || "";
    }
  }
  YAMLException2.prototype = Object.create(Error.prototype);
  YAMLException2.prototype.constructor = YAMLException2;
  YAMLException2.prototype.toString = function toString(compact) {
    return this.name + ": " + formatError(this, compact);
  };
  exception = YAMLException2;
  return exception;
}
var snippet;
var hasRequiredSnippet;
function requireSnippet() {
  if (hasRequiredSnippet) return snippet;
  hasRequiredSnippet = 1;
  const common2 = requireCommon();
  function getLine(buffer, lineStart, lineEnd3, position, maxLineLength) {
    let head = "";
    let tail = "";
    const maxHalfLength = Math.floor(maxLineLength / 2) - 1;
    if (position - lineStart > maxHalfLength) {
      head = " ... ";
      lineStart = position - maxHalfLength + head.length;
    }
    if (lineEnd3 - position > maxHalfLength) {
      tail = " ...";
      lineEnd3 = position + maxHalfLength - tail.length;
    }
    return {
      str: head + buffer.slice(lineStart, lineEnd3).replace(/\t/g, "\u2192") + tail,
      pos: position - lineStart + head.length
      // relative position
    };
  }
  function padStart(string, max) {
    return common2.repeat(" ", max - string.length) + string;
  }
  function makeSnippet(mark, options2) {
    options2 = Object.create(options2 || null);
    if (!mark.buffer) return null;
    if (!options2.maxLength) options2.maxLength = 79;
    if (typeof options2.indent !== "number") options2.indent = 1;
    if (typeof options2.linesBefore !== "number") options2.linesBefore = 3;
    if (typeof options2.linesAfter !== "number") options2.linesAfter = 2;
    const re = /\r?\n|\r|\0/g;
    const lineStarts = [0];
    const lineEnds = [];
    let match;
    let foundLineNo = -1;
    while (match = re.exec(mark.buffer)) {
      lineEnds.push(match.index);
      lineStarts.push(match.index + match[0].length);
      if (mark.position <= match.index && foundLineNo < 0) {
        foundLineNo = lineStarts.length - 2;
      }
    }
    if (foundLineNo < 0) foundLineNo = lineStarts.length - 1;
    let result = "";
    const lineNoLength = Math.min(mark.line + options2.linesAfter, lineEnds.length).toString().length;
    const maxLineLength = options2.maxLength - (options2.indent + lineNoLength + 3);
    for (let i = 1; i <= options2.linesBefore; i++) {
      if (foundLineNo - i < 0) break;
      const line2 = getLine(
        mark.buffer,
        lineStarts[foundLineNo - i],
        lineEnds[foundLineNo - i],
        mark.position - (lineStarts[foundLineNo] - lineStarts[foundLineNo - i]),
        maxLineLength
      );
      result = common2.repeat(" ", options2.indent) + padStart((mark.line - i + 1).toString(), lineNoLength) + " | " + line2.str + "\n" + result;
    }
    const line = getLine(mark.buffer, lineStarts[foundLineNo], lineEnds[foundLineNo], mark.position, maxLineLength);
    result += common2.repeat(" ", options2.indent) + padStart((mark.line + 1).toString(), lineNoLength) + " | " + line.str + "\n";
    result += common2.repeat("-", options2.indent + lineNoLength + 3 + line.pos) + "^\n";
    for (let i = 1; i <= options2.linesAfter; i++) {
      if (foundLineNo + i >= lineEnds.length) break;
      const line2 = getLine(
        mark.buffer,
        lineStarts[foundLineNo + i],
        lineEnds[foundLineNo + i],
        mark.position - (lineStarts[foundLineNo] - lineStarts[foundLineNo + i]),
        maxLineLength
      );
      result += common2.repeat(" ", options2.indent) + padStart((mark.line + i + 1).toString(), lineNoLength) + " | " + line2.str + "\n";
    }
    return result.replace(/\n$/, "");
  }
  snippet = makeSnippet;
  return snippet;
}
var type;
var hasRequiredType;
function requireType() {
  if (hasRequiredType) return type;
  hasRequiredType = 1;
  const YAMLException2 = requireException();
  const TYPE_CONSTRUCTOR_OPTIONS = [
    "kind",
    "multi",
    "resolve",
    "construct",
    "instanceOf",
    "predicate",
    "represent",
    "representName",
    "defaultStyle",
    "styleAliases"
  ];
  const YAML_NODE_KINDS = [
    "scalar",
    "sequence",
    "mapping"
  ];
  function compileStyleAliases(map2) {
    const result = {};
    if (map2 !== null) {
      Object.keys(map2).forEach(function(style) {
        map2[style].forEach(function(alias) {
          result[String(alias)] = style;
        });
      });
    }
    return result;
  }
  function Type2(tag, options2) {
    options2 = options2 || {};
    Object.keys(options2).forEach(function(name) {
      if (TYPE_CONSTRUCTOR_OPTIONS.indexOf(name) === -1) {
        throw new YAMLException2('Unknown option "' + name + '" is met in definition of "' + tag + '" YAML type.');
      }
    });
    this.options = options2;
    this.tag = tag;
    this.kind = options2["kind"] || null;
    this.resolve = options2["resolve"] || function() {
      return true;
    };
    this.construct = options2["construct"] || function(data) {
      return data;
    };
    this.instanceOf = options2["instanceOf"] || null;
    this.predicate = options2["predicate"] || null;
    this.represent = options2["represent"] || null;
    this.representName = options2["representName"] || null;
    this.defaultStyle = options2["defaultStyle"] || null;
    this.multi = options2["multi"] || false;
    this.styleAliases = compileStyleAliases(options2["styleAliases"] || null);
    if (YAML_NODE_KINDS.indexOf(this.kind) === -1) {
      throw new YAMLException2('Unknown kind "' + this.kind + '" is specified for "' + tag + '" YAML type.');
    }
  }
  type = Type2;
  return type;
}
var schema;
var hasRequiredSchema;
function requireSchema() {
  if (hasRequiredSchema) return schema;
  hasRequiredSchema = 1;
  const YAMLException2 = requireException();
  const Type2 = requireType();
  function compileList(schema2, name) {
    const result = [];
    schema2[name].forEach(function(currentType) {
      let newIndex = result.length;
      result.forEach(function(previousType, previousIndex) {
        if (previousType.tag === currentType.tag && previousType.kind === currentType.kind && previousType.multi === currentType.multi) {
          newIndex = previousIndex;
        }
      });
      result[newIndex] = currentType;
    });
    return result;
  }
  function compileMap() {
    const result = {
      scalar: {},
      sequence: {},
      mapping: {},
      fallback: {},
      multi: {
        scalar: [],
        sequence: [],
        mapping: [],
        fallback: []
      }
    };
    function collectType(type2) {
      if (type2.multi) {
        result.multi[type2.kind].push(type2);
        result.multi["fallback"].push(type2);
      } else {
        result[type2.kind][type2.tag] = result["fallback"][type2.tag] = type2;
      }
    }
    for (let index = 0, length = arguments.length; index < length; index += 1) {
      arguments[index].forEach(collectType);
    }
    return result;
  }
  function Schema2(definition) {
    return this.extend(definition);
  }
  Schema2.prototype.extend = function extend(definition) {
    let implicit = [];
    let explicit = [];
    if (definition instanceof Type2) {
      explicit.push(definition);
    } else if (Array.isArray(definition)) {
      explicit = explicit.concat(definition);
    } else if (definition && (Array.isArray(definition.implicit) || Array.isArray(definition.explicit))) {
      if (definition.implicit) implicit = implicit.concat(definition.implicit);
      if (definition.explicit) explicit = explicit.concat(definition.explicit);
    } else {
      throw new YAMLException2("Schema.extend argument should be a Type, [ Type ], or a schema definition ({ implicit: [...], explicit: [...] })");
    }
    implicit.forEach(function(type2) {
      if (!(type2 instanceof Type2)) {
        throw new YAMLException2("Specified list of YAML types (or a single Type object) contains a non-Type object.");
      }
      if (type2.loadKind && type2.loadKind !== "scalar") {
        throw new YAMLException2("There is a non-scalar type in the implicit list of a schema. Implicit resolving of such types is not supported.");
      }
      if (type2.multi) {
        throw new YAMLException2("There is a multi type in the implicit list of a schema. Multi tags can only be listed as explicit.");
      }
    });
    explicit.forEach(function(type2) {
      if (!(type2 instanceof Type2)) {
        throw new YAMLException2("Specified list of YAML types (or a single Type object) contains a non-Type object.");
      }
    });
    const result = Object.create(Schema2.prototype);
    result.implicit = (this.implicit || []).concat(implicit);
    result.explicit = (this.explicit || []).concat(explicit);
    result.compiledImplicit = compileList(result, "implicit");
    result.compiledExplicit = compileList(result, "explicit");
    result.compiledTypeMap = compileMap(result.compiledImplicit, result.compiledExplicit);
    return result;
  };
  schema = Schema2;
  return schema;
}
var str2;
var hasRequiredStr;
function requireStr() {
  if (hasRequiredStr) return str2;
  hasRequiredStr = 1;
  const Type2 = requireType();
  str2 = new Type2("tag:yaml.org,2002:str", {
    kind: "scalar",
    construct: function(data) {
      return data !== null ? data : "";
    }
  });
  return str2;
}
var seq;
var hasRequiredSeq;
function requireSeq() {
  if (hasRequiredSeq) return seq;
  hasRequiredSeq = 1;
  const Type2 = requireType();
  seq = new Type2("tag:yaml.org,2002:seq", {
    kind: "sequence",
    construct: function(data) {
      return data !== null ? data : [];
    }
  });
  return seq;
}
var map;
var hasRequiredMap;
function requireMap() {
  if (hasRequiredMap) return map;
  hasRequiredMap = 1;
  const Type2 = requireType();
  map = new Type2("tag:yaml.org,2002:map", {
    kind: "mapping",
    construct: function(data) {
      return data !== null ? data : {};
    }
  });
  return map;
}
var failsafe;
var hasRequiredFailsafe;
function requireFailsafe() {
  if (hasRequiredFailsafe) return failsafe;
  hasRequiredFailsafe = 1;
  const Schema2 = requireSchema();
  failsafe = new Schema2({
    explicit: [
      requireStr(),
      requireSeq(),
      requireMap()
    ]
  });
  return failsafe;
}
var _null;
var hasRequired_null;
function require_null() {
  if (hasRequired_null) return _null;
  hasRequired_null = 1;
  const Type2 = requireType();
  function resolveYamlNull(data) {
    if (data === null) return true;
    const max = data.length;
    return max === 1 && data === "~" || max === 4 && (data === "null" || data === "Null" || data === "NULL");
  }
  function constructYamlNull() {
    return null;
  }
  function isNull(object) {
    return object === null;
  }
  _null = new Type2("tag:yaml.org,2002:null", {
    kind: "scalar",
    resolve: resolveYamlNull,
    construct: constructYamlNull,
    predicate: isNull,
    represent: {
      canonical: function() {
        return "~";
      },
      lowercase: function() {
        return "null";
      },
      uppercase: function() {
        return "NULL";
      },
      camelcase: function() {
        return "Null";
      },
      empty: function() {
        return "";
      }
    },
    defaultStyle: "lowercase"
  });
  return _null;
}
var bool;
var hasRequiredBool;
function requireBool() {
  if (hasRequiredBool) return bool;
  hasRequiredBool = 1;
  const Type2 = requireType();
  function resolveYamlBoolean(data) {
    if (data === null) return false;
    const max = data.length;
    return max === 4 && (data === "true" || data === "True" || data === "TRUE") || max === 5 && (data === "false" || data === "False" || data === "FALSE");
  }
  function constructYamlBoolean(data) {
    return data === "true" || data === "True" || data === "TRUE";
  }
  function isBoolean(object) {
    return Object.prototype.toString.call(object) === "[object Boolean]";
  }
  bool = new Type2("tag:yaml.org,2002:bool", {
    kind: "scalar",
    resolve: resolveYamlBoolean,
    construct: constructYamlBoolean,
    predicate: isBoolean,
    represent: {
      lowercase: function(object) {
        return object ? "true" : "false";
      },
      uppercase: function(object) {
        return object ? "TRUE" : "FALSE";
      },
      camelcase: function(object) {
        return object ? "True" : "False";
      }
    },
    defaultStyle: "lowercase"
  });
  return bool;
}
var int;
var hasRequiredInt;
function requireInt() {
  if (hasRequiredInt) return int;
  hasRequiredInt = 1;
  const common2 = requireCommon();
  const Type2 = requireType();
  function isHexCode(c) {
    return c >= 48 && c <= 57 || c >= 65 && c <= 70 || c >= 97 && c <= 102;
  }
  function isOctCode(c) {
    return c >= 48 && c <= 55;
  }
  function isDecCode(c) {
    return c >= 48 && c <= 57;
  }
  function resolveYamlInteger(data) {
    if (data === null) return false;
    const max = data.length;
    let index = 0;
    let hasDigits = false;
    if (!max) return false;
    let ch = data[index];
    if (ch === "-" || ch === "+") {
      ch = data[++index];
    }
    if (ch === "0") {
      if (index + 1 === max) return true;
      ch = data[++index];
      if (ch === "b") {
        index++;
        for (; index < max; index++) {
          ch = data[index];
          if (ch !== "0" && ch !== "1") return false;
          hasDigits = true;
        }
        return hasDigits && isFinite(parseYamlInteger(data));
      }
      if (ch === "x") {
        index++;
        for (; index < max; index++) {
          if (!isHexCode(data.charCodeAt(index))) return false;
          hasDigits = true;
        }
        return hasDigits && isFinite(parseYamlInteger(data));
      }
      if (ch === "o") {
        index++;
        for (; index < max; index++) {
          if (!isOctCode(data.charCodeAt(index))) return false;
          hasDigits = true;
        }
        return hasDigits && isFinite(parseYamlInteger(data));
      }
    }
    for (; index < max; index++) {
      if (!isDecCode(data.charCodeAt(index))) {
        return false;
      }
      hasDigits = true;
    }
    if (!hasDigits) return false;
    return isFinite(parseYamlInteger(data));
  }
  function parseYamlInteger(data) {
    let value = data;
    let sign = 1;
    let ch = value[0];
    if (ch === "-" || ch === "+") {
      if (ch === "-") sign = -1;
      value = value.slice(1);
      ch = value[0];
    }
    if (value === "0") return 0;
    if (ch === "0") {
      if (value[1] === "b") return sign * parseInt(value.slice(2), 2);
      if (value[1] === "x") return sign * parseInt(value.slice(2), 16);
      if (value[1] === "o") return sign * parseInt(value.slice(2), 8);
    }
    return sign * parseInt(value, 10);
  }
  function constructYamlInteger(data) {
    return parseYamlInteger(data);
  }
  function isInteger(object) {
    return Object.prototype.toString.call(object) === "[object Number]" && (object % 1 === 0 && !common2.isNegativeZero(object));
  }
  int = new Type2("tag:yaml.org,2002:int", {
    kind: "scalar",
    resolve: resolveYamlInteger,
    construct: constructYamlInteger,
    predicate: isInteger,
    represent: {
      binary: function(obj) {
        return obj >= 0 ? "0b" + obj.toString(2) : "-0b" + obj.toString(2).slice(1);
      },
      octal: function(obj) {
        return obj >= 0 ? "0o" + obj.toString(8) : "-0o" + obj.toString(8).slice(1);
      },
      decimal: function(obj) {
        return obj.toString(10);
      },
      hexadecimal: function(obj) {
        return obj >= 0 ? "0x" + obj.toString(16).toUpperCase() : "-0x" + obj.toString(16).toUpperCase().slice(1);
      }
    },
    defaultStyle: "decimal",
    styleAliases: {
      binary: [2, "bin"],
      octal: [8, "oct"],
      decimal: [10, "dec"],
      hexadecimal: [16, "hex"]
    }
  });
  return int;
}
var float;
var hasRequiredFloat;
function requireFloat() {
  if (hasRequiredFloat) return float;
  hasRequiredFloat = 1;
  const common2 = requireCommon();
  const Type2 = requireType();
  const YAML_FLOAT_PATTERN = new RegExp(
    // 2.5e4, 2.5 and integers
    "^(?:[-+]?(?:[0-9]+)(?:\\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|\\.[0-9]+(?:[eE][-+]?[0-9]+)?|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$"
  );
  const YAML_FLOAT_SPECIAL_PATTERN = new RegExp(
    "^(?:[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$"
  );
  function resolveYamlFloat(data) {
    if (data === null) return false;
    if (!YAML_FLOAT_PATTERN.test(data)) {
      return false;
    }
    if (isFinite(parseFloat(data, 10))) {
      return true;
    }
    return YAML_FLOAT_SPECIAL_PATTERN.test(data);
  }
  function constructYamlFloat(data) {
    let value = data.toLowerCase();
    const sign = value[0] === "-" ? -1 : 1;
    if ("+-".indexOf(value[0]) >= 0) {
      value = value.slice(1);
    }
    if (value === ".inf") {
      return sign === 1 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    } else if (value === ".nan") {
      return NaN;
    }
    return sign * parseFloat(value, 10);
  }
  const SCIENTIFIC_WITHOUT_DOT = /^[-+]?[0-9]+e/;
  function representYamlFloat(object, style) {
    if (isNaN(object)) {
      switch (style) {
        case "lowercase":
          return ".nan";
        case "uppercase":
          return ".NAN";
        case "camelcase":
          return ".NaN";
      }
    } else if (Number.POSITIVE_INFINITY === object) {
      switch (style) {
        case "lowercase":
          return ".inf";
        case "uppercase":
          return ".INF";
        case "camelcase":
          return ".Inf";
      }
    } else if (Number.NEGATIVE_INFINITY === object) {
      switch (style) {
        case "lowercase":
          return "-.inf";
        case "uppercase":
          return "-.INF";
        case "camelcase":
          return "-.Inf";
      }
    } else if (common2.isNegativeZero(object)) {
      return "-0.0";
    }
    const res = object.toString(10);
    return SCIENTIFIC_WITHOUT_DOT.test(res) ? res.replace("e", ".e") : res;
  }
  function isFloat(object) {
    return Object.prototype.toString.call(object) === "[object Number]" && (object % 1 !== 0 || common2.isNegativeZero(object));
  }
  float = new Type2("tag:yaml.org,2002:float", {
    kind: "scalar",
    resolve: resolveYamlFloat,
    construct: constructYamlFloat,
    predicate: isFloat,
    represent: representYamlFloat,
    defaultStyle: "lowercase"
  });
  return float;
}
var json;
var hasRequiredJson;
function requireJson() {
  if (hasRequiredJson) return json;
  hasRequiredJson = 1;
  json = requireFailsafe().extend({
    implicit: [
      require_null(),
      requireBool(),
      requireInt(),
      requireFloat()
    ]
  });
  return json;
}
var core;
var hasRequiredCore;
function requireCore() {
  if (hasRequiredCore) return core;
  hasRequiredCore = 1;
  core = requireJson();
  return core;
}
var timestamp;
var hasRequiredTimestamp;
function requireTimestamp() {
  if (hasRequiredTimestamp) return timestamp;
  hasRequiredTimestamp = 1;
  const Type2 = requireType();
  const YAML_DATE_REGEXP = new RegExp(
    "^([0-9][0-9][0-9][0-9])-([0-9][0-9])-([0-9][0-9])$"
  );
  const YAML_TIMESTAMP_REGEXP = new RegExp(
    "^([0-9][0-9][0-9][0-9])-([0-9][0-9]?)-([0-9][0-9]?)(?:[Tt]|[ \\t]+)([0-9][0-9]?):([0-9][0-9]):([0-9][0-9])(?:\\.([0-9]*))?(?:[ \\t]*(Z|([-+])([0-9][0-9]?)(?::([0-9][0-9]))?))?$"
  );
  function resolveYamlTimestamp(data) {
    if (data === null) return false;
    if (YAML_DATE_REGEXP.exec(data) !== null) return true;
    if (YAML_TIMESTAMP_REGEXP.exec(data) !== null) return true;
    return false;
  }
  function constructYamlTimestamp(data) {
    let fraction = 0;
    let delta = null;
    let match = YAML_DATE_REGEXP.exec(data);
    if (match === null) match = YAML_TIMESTAMP_REGEXP.exec(data);
    if (match === null) throw new Error("Date resolve error");
    const year = +match[1];
    const month = +match[2] - 1;
    const day = +match[3];
    if (!match[4]) {
      return new Date(Date.UTC(year, month, day));
    }
    const hour = +match[4];
    const minute = +match[5];
    const second = +match[6];
    if (match[7]) {
      fraction = match[7].slice(0, 3);
      while (fraction.length < 3) {
        fraction += "0";
      }
      fraction = +fraction;
    }
    if (match[9]) {
      const tzHour = +match[10];
      const tzMinute = +(match[11] || 0);
      delta = (tzHour * 60 + tzMinute) * 6e4;
      if (match[9] === "-") delta = -delta;
    }
    const date = new Date(Date.UTC(year, month, day, hour, minute, second, fraction));
    if (delta) date.setTime(date.getTime() - delta);
    return date;
  }
  function representYamlTimestamp(object) {
    return object.toISOString();
  }
  timestamp = new Type2("tag:yaml.org,2002:timestamp", {
    kind: "scalar",
    resolve: resolveYamlTimestamp,
    construct: constructYamlTimestamp,
    instanceOf: Date,
    represent: representYamlTimestamp
  });
  return timestamp;
}
var merge;
var hasRequiredMerge;
function requireMerge() {
  if (hasRequiredMerge) return merge;
  hasRequiredMerge = 1;
  const Type2 = requireType();
  function resolveYamlMerge(data) {
    return data === "<<" || data === null;
  }
  merge = new Type2("tag:yaml.org,2002:merge", {
    kind: "scalar",
    resolve: resolveYamlMerge
  });
  return merge;
}
var binary;
var hasRequiredBinary;
function requireBinary() {
  if (hasRequiredBinary) return binary;
  hasRequiredBinary = 1;
  const Type2 = requireType();
  const BASE64_MAP = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\n\r";
  function resolveYamlBinary(data) {
    if (data === null) return false;
    let bitlen = 0;
    const max = data.length;
    const map2 = BASE64_MAP;
    for (let idx = 0; idx < max; idx++) {
      const code = map2.indexOf(data.charAt(idx));
      if (code > 64) continue;
      if (code < 0) return false;
      bitlen += 6;
    }
    return bitlen % 8 === 0;
  }
  function constructYamlBinary(data) {
    const input = data.replace(/[\r\n=]/g, "");
    const max = input.length;
    const map2 = BASE64_MAP;
    let bits = 0;
    const result = [];
    for (let idx = 0; idx < max; idx++) {
      if (idx % 4 === 0 && idx) {
        result.push(bits >> 16 & 255);
        result.push(bits >> 8 & 255);
        result.push(bits & 255);
      }
      bits = bits << 6 | map2.indexOf(input.charAt(idx));
    }
    const tailbits = max % 4 * 6;
    if (tailbits === 0) {
      result.push(bits >> 16 & 255);
      result.push(bits >> 8 & 255);
      result.push(bits & 255);
    } else if (tailbits === 18) {
      result.push(bits >> 10 & 255);
      result.push(bits >> 2 & 255);
    } else if (tailbits === 12) {
      result.push(bits >> 4 & 255);
    }
    return new Uint8Array(result);
  }
  function representYamlBinary(object) {
    let result = "";
    let bits = 0;
    const max = object.length;
    const map2 = BASE64_MAP;
    for (let idx = 0; idx < max; idx++) {
      if (idx % 3 === 0 && idx) {
        result += map2[bits >> 18 & 63];
        result += map2[bits >> 12 & 63];
        result += map2[bits >> 6 & 63];
        result += map2[bits & 63];
      }
      bits = (bits << 8) + object[idx];
    }
    const tail = max % 3;
    if (tail === 0) {
      result += map2[bits >> 18 & 63];
      result += map2[bits >> 12 & 63];
      result += map2[bits >> 6 & 63];
      result += map2[bits & 63];
    } else if (tail === 2) {
      result += map2[bits >> 10 & 63];
      result += map2[bits >> 4 & 63];
      result += map2[bits << 2 & 63];
      result += map2[64];
    } else if (tail === 1) {
      result += map2[bits >> 2 & 63];
      result += map2[bits << 4 & 63];
      result += map2[64];
      result += map2[64];
    }
    return result;
  }
  function isBinary(obj) {
    return Object.prototype.toString.call(obj) === "[object Uint8Array]";
  }
  binary = new Type2("tag:yaml.org,2002:binary", {
    kind: "scalar",
    resolve: resolveYamlBinary,
    construct: constructYamlBinary,
    predicate: isBinary,
    represent: representYamlBinary
  });
  return binary;
}
var omap;
var hasRequiredOmap;
function requireOmap() {
  if (hasRequiredOmap) return omap;
  hasRequiredOmap = 1;
  const Type2 = requireType();
  const _hasOwnProperty = Object.prototype.hasOwnProperty;
  const _toString = Object.prototype.toString;
  function resolveYamlOmap(data) {
    if (data === null) return true;
    const objectKeys = {};
    const object = data;
    for (let index = 0, length = object.length; index < length; index += 1) {
      const pair = object[index];
      let pairHasKey = false;
      if (_toString.call(pair) !== "[object Object]") return false;
      let pairKey;
      for (pairKey in pair) {
        if (_hasOwnProperty.call(pair, pairKey)) {
          if (!pairHasKey) pairHasKey = true;
          else return false;
        }
      }
      if (!pairHasKey) return false;
      if (_hasOwnProperty.call(objectKeys, pairKey)) return false;
      Object.defineProperty(objectKeys, pairKey, { value: true });
    }
    return true;
  }
  function constructYamlOmap(data) {
    return data !== null ? data : [];
  }
  omap = new Type2("tag:yaml.org,2002:omap", {
    kind: "sequence",
    resolve: resolveYamlOmap,
    construct: constructYamlOmap
  });
  return omap;
}
var pairs;
var hasRequiredPairs;
function requirePairs() {
  if (hasRequiredPairs) return pairs;
  hasRequiredPairs = 1;
  const Type2 = requireType();
  const _toString = Object.prototype.toString;
  function resolveYamlPairs(data) {
    if (data === null) return true;
    const object = data;
    const result = new Array(object.length);
    for (let index = 0, length = object.length; index < length; index += 1) {
      const pair = object[index];
      if (_toString.call(pair) !== "[object Object]") return false;
      const keys = Object.keys(pair);
      if (keys.length !== 1) return false;
      result[index] = [keys[0], pair[keys[0]]];
    }
    return true;
  }
  function constructYamlPairs(data) {
    if (data === null) return [];
    const object = data;
    const result = new Array(object.length);
    for (let index = 0, length = object.length; index < length; index += 1) {
      const pair = object[index];
      const keys = Object.keys(pair);
      result[index] = [keys[0], pair[keys[0]]];
    }
    return result;
  }
  pairs = new Type2("tag:yaml.org,2002:pairs", {
    kind: "sequence",
    resolve: resolveYamlPairs,
    construct: constructYamlPairs
  });
  return pairs;
}
var set;
var hasRequiredSet;
function requireSet() {
  if (hasRequiredSet) return set;
  hasRequiredSet = 1;
  const Type2 = requireType();
  const _hasOwnProperty = Object.prototype.hasOwnProperty;
  function resolveYamlSet(data) {
    if (data === null) return true;
    const object = data;
    for (const key in object) {
      if (_hasOwnProperty.call(object, key)) {
        if (object[key] !== null) return false;
      }
    }
    return true;
  }
  function constructYamlSet(data) {
    return data !== null ? data : {};
  }
  set = new Type2("tag:yaml.org,2002:set", {
    kind: "mapping",
    resolve: resolveYamlSet,
    construct: constructYamlSet
  });
  return set;
}
var _default;
var hasRequired_default;
function require_default() {
  if (hasRequired_default) return _default;
  hasRequired_default = 1;
  _default = requireCore().extend({
    implicit: [
      requireTimestamp(),
      requireMerge()
    ],
    explicit: [
      requireBinary(),
      requireOmap(),
      requirePairs(),
      requireSet()
    ]
  });
  return _default;
}
var hasRequiredLoader;
function requireLoader() {
  if (hasRequiredLoader) return loader;
  hasRequiredLoader = 1;
  const common2 = requireCommon();
  const YAMLException2 = requireException();
  const makeSnippet = requireSnippet();
  const DEFAULT_SCHEMA2 = require_default();
  const _hasOwnProperty = Object.prototype.hasOwnProperty;
  const CONTEXT_FLOW_IN = 1;
  const CONTEXT_FLOW_OUT = 2;
  const CONTEXT_BLOCK_IN = 3;
  const CONTEXT_BLOCK_OUT = 4;
  const CHOMPING_CLIP = 1;
  const CHOMPING_STRIP = 2;
  const CHOMPING_KEEP = 3;
  const PATTERN_NON_PRINTABLE = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;
  const PATTERN_NON_ASCII_LINE_BREAKS = /[\x85\u2028\u2029]/;
  const PATTERN_FLOW_INDICATORS = /[,\[\]{}]/;
  const PATTERN_TAG_HANDLE = /^(?:!|!!|![0-9A-Za-z-]+!)$/;
  const PATTERN_TAG_URI = /^(?:!|[^,\[\]{}])(?:%[0-9a-f]{2}|[0-9a-z\-#;/?:@&=+$,_.!~*'()\[\]])*$/i;
  function _class(obj) {
    return Object.prototype.toString.call(obj);
  }
  function isEol(c) {
    return c === 10 || c === 13;
  }
  function isWhiteSpace(c) {
    return c === 9 || c === 32;
  }
  function isWsOrEol(c) {
    return c === 9 || c === 32 || c === 10 || c === 13;
  }
  function isFlowIndicator(c) {
    return c === 44 || c === 91 || c === 93 || c === 123 || c === 125;
  }
  function fromHexCode(c) {
    if (c >= 48 && c <= 57) {
      return c - 48;
    }
    const lc = c | 32;
    if (lc >= 97 && lc <= 102) {
      return lc - 97 + 10;
    }
    return -1;
  }
  function escapedHexLen(c) {
    if (c === 120) {
      return 2;
    }
    if (c === 117) {
      return 4;
    }
    if (c === 85) {
      return 8;
    }
    return 0;
  }
  function fromDecimalCode(c) {
    if (c >= 48 && c <= 57) {
      return c - 48;
    }
    return -1;
  }
  function simpleEscapeSequence(c) {
    switch (c) {
      case 48:
        return "\0";
      case 97:
        return "\x07";
      case 98:
        return "\b";
      case 116:
        return "	";
      case 9:
        return "	";
      case 110:
        return "\n";
      case 118:
        return "\v";
      case 102:
        return "\f";
      case 114:
        return "\r";
      case 101:
        return "\x1B";
      case 32:
        return " ";
      case 34:
        return '"';
      case 47:
        return "/";
      case 92:
        return "\\";
      case 78:
        return "\x85";
      case 95:
        return "\xA0";
      case 76:
        return "\u2028";
      case 80:
        return "\u2029";
      default:
        return "";
    }
  }
  function charFromCodepoint(c) {
    if (c <= 65535) {
      return String.fromCharCode(c);
    }
    return String.fromCharCode(
      (c - 65536 >> 10) + 55296,
      (c - 65536 & 1023) + 56320
    );
  }
  function setProperty(object, key, value) {
    if (key === "__proto__") {
      Object.defineProperty(object, key, {
        configurable: true,
        enumerable: true,
        writable: true,
        value
      });
    } else {
      object[key] = value;
    }
  }
  const simpleEscapeCheck = new Array(256);
  const simpleEscapeMap = new Array(256);
  for (let i = 0; i < 256; i++) {
    simpleEscapeCheck[i] = simpleEscapeSequence(i) ? 1 : 0;
    simpleEscapeMap[i] = simpleEscapeSequence(i);
  }
  function State(input, options2) {
    this.input = input;
    this.filename = options2["filename"] || null;
    this.schema = options2["schema"] || DEFAULT_SCHEMA2;
    this.onWarning = options2["onWarning"] || null;
    this.legacy = options2["legacy"] || false;
    this.json = options2["json"] || false;
    this.listener = options2["listener"] || null;
    this.maxDepth = typeof options2["maxDepth"] === "number" ? options2["maxDepth"] : 100;
    this.maxTotalMergeKeys = typeof options2["maxTotalMergeKeys"] === "number" ? options2["maxTotalMergeKeys"] : 1e4;
    this.implicitTypes = this.schema.compiledImplicit;
    this.typeMap = this.schema.compiledTypeMap;
    this.length = input.length;
    this.position = 0;
    this.line = 0;
    this.lineStart = 0;
    this.lineIndent = 0;
    this.depth = 0;
    this.totalMergeKeys = 0;
    this.firstTabInLine = -1;
    this.documents = [];
    this.anchorMapTransactions = [];
  }
  function generateError(state, message) {
    const mark = {
      name: state.filename,
      buffer: state.input.slice(0, -1),
      // omit trailing \0
      position: state.position,
      line: state.line,
      column: state.position - state.lineStart
    };
    mark.snippet = makeSnippet(mark);
    return new YAMLException2(message, mark);
  }
  function throwError(state, message) {
    throw generateError(state, message);
  }
  function throwWarning(state, message) {
    if (state.onWarning) {
      state.onWarning.call(null, generateError(state, message));
    }
  }
  function storeAnchor(state, name, value) {
    const transactions = state.anchorMapTransactions;
    if (transactions.length !== 0) {
      const transaction = transactions[transactions.length - 1];
      if (!_hasOwnProperty.call(transaction, name)) {
        transaction[name] = {
          existed: _hasOwnProperty.call(state.anchorMap, name),
          value: state.anchorMap[name]
        };
      }
    }
    state.anchorMap[name] = value;
  }
  function beginAnchorTransaction(state) {
    state.anchorMapTransactions.push(/* @__PURE__ */ Object.create(null));
  }
  function commitAnchorTransaction(state) {
    const transaction = state.anchorMapTransactions.pop();
    const transactions = state.anchorMapTransactions;
    if (transactions.length === 0) return;
    const parent = transactions[transactions.length - 1];
    const names = Object.keys(transaction);
    for (let index = 0, length = names.length; index < length; index += 1) {
      const name = names[index];
      if (!_hasOwnProperty.call(parent, name)) {
        parent[name] = transaction[name];
      }
    }
  }
  function rollbackAnchorTransaction(state) {
    const transaction = state.anchorMapTransactions.pop();
    const names = Object.keys(transaction);
    for (let index = names.length - 1; index >= 0; index -= 1) {
      const entry = transaction[names[index]];
      if (entry.existed) {
        state.anchorMap[names[index]] = entry.value;
      } else {
        delete state.anchorMap[names[index]];
      }
    }
  }
  function snapshotState(state) {
    return {
      position: state.position,
      line: state.line,
      lineStart: state.lineStart,
      lineIndent: state.lineIndent,
      firstTabInLine: state.firstTabInLine,
      tag: state.tag,
      anchor: state.anchor,
      kind: state.kind,
      result: state.result
    };
  }
  function restoreState(state, snapshot) {
    state.position = snapshot.position;
    state.line = snapshot.line;
    state.lineStart = snapshot.lineStart;
    state.lineIndent = snapshot.lineIndent;
    state.firstTabInLine = snapshot.firstTabInLine;
    state.tag = snapshot.tag;
    state.anchor = snapshot.anchor;
    state.kind = snapshot.kind;
    state.result = snapshot.result;
  }
  const directiveHandlers = {
    YAML: function handleYamlDirective(state, name, args) {
      if (state.version !== null) {
        throwError(state, "duplication of %YAML directive");
      }
      if (args.length !== 1) {
        throwError(state, "YAML directive accepts exactly one argument");
      }
      const match = /^([0-9]+)\.([0-9]+)$/.exec(args[0]);
      if (match === null) {
        throwError(state, "ill-formed argument of the YAML directive");
      }
      const major = parseInt(match[1], 10);
      const minor = parseInt(match[2], 10);
      if (major !== 1) {
        throwError(state, "unacceptable YAML version of the document");
      }
      state.version = args[0];
      state.checkLineBreaks = minor < 2;
      if (minor !== 1 && minor !== 2) {
        throwWarning(state, "unsupported YAML version of the document");
      }
    },
    TAG: function handleTagDirective(state, name, args) {
      let prefix;
      if (args.length !== 2) {
        throwError(state, "TAG directive accepts exactly two arguments");
      }
      const handle = args[0];
      prefix = args[1];
      if (!PATTERN_TAG_HANDLE.test(handle)) {
        throwError(state, "ill-formed tag handle (first argument) of the TAG directive");
      }
      if (_hasOwnProperty.call(state.tagMap, handle)) {
        throwError(state, 'there is a previously declared suffix for "' + handle + '" tag handle');
      }
      if (!PATTERN_TAG_URI.test(prefix)) {
        throwError(state, "ill-formed tag prefix (second argument) of the TAG directive");
      }
      try {
        prefix = decodeURIComponent(prefix);
      } catch (err) {
        throwError(state, "tag prefix is malformed: " + prefix);
      }
      state.tagMap[handle] = prefix;
    }
  };
  function captureSegment(state, start, end, checkJson) {
    if (start < end) {
      const _result = state.input.slice(start, end);
      if (checkJson) {
        for (let _position = 0, _length = _result.length; _position < _length; _position += 1) {
          const _character = _result.charCodeAt(_position);
          if (!(_character === 9 || _character >= 32 && _character <= 1114111)) {
            throwError(state, "expected valid JSON character");
          }
        }
      } else if (PATTERN_NON_PRINTABLE.test(_result)) {
        throwError(state, "the stream contains non-printable characters");
      }
      state.result += _result;
    }
  }
  function chargeMergeWork(state) {
    state.totalMergeKeys++;
    if (state.maxTotalMergeKeys !== -1 && state.totalMergeKeys > state.maxTotalMergeKeys) {
      throwError(state, "merge keys exceeded maxTotalMergeKeys (" + state.maxTotalMergeKeys + ")");
    }
  }
  function mergeMappings(state, destination, source, overridableKeys) {
    if (!common2.isObject(source)) {
      throwError(state, "cannot merge mappings; the provided source object is unacceptable");
    }
    chargeMergeWork(state);
    const sourceKeys = Object.keys(source);
    for (let index = 0, quantity = sourceKeys.length; index < quantity; index += 1) {
      const key = sourceKeys[index];
      chargeMergeWork(state);
      if (!_hasOwnProperty.call(destination, key)) {
        setProperty(destination, key, source[key]);
        overridableKeys[key] = true;
      }
    }
  }
  function storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, valueNode, startLine, startLineStart, startPos) {
    if (Array.isArray(keyNode)) {
      keyNode = Array.prototype.slice.call(keyNode);
      for (let index = 0, quantity = keyNode.length; index < quantity; index += 1) {
        if (Array.isArray(keyNode[index])) {
          throwError(state, "nested arrays are not supported inside keys");
        }
        if (typeof keyNode === "object" && _class(keyNode[index]) === "[object Object]") {
          keyNode[index] = "[object Object]";
        }
      }
    }
    if (typeof keyNode === "object" && _class(keyNode) === "[object Object]") {
      keyNode = "[object Object]";
    }
    keyNode = String(keyNode);
    if (_result === null) {
      _result = {};
    }
    if (keyTag === "tag:yaml.org,2002:merge") {
      if (Array.isArray(valueNode)) {
        if (valueNode.length > 100) {
          throwError(state, "abnormal merge sequence size");
        }
        for (let index = 0, quantity = valueNode.length; index < quantity; index += 1) {
          mergeMappings(state, _result, valueNode[index], overridableKeys);
        }
      } else {
        mergeMappings(state, _result, valueNode, overridableKeys);
      }
    } else {
      if (!state.json && !_hasOwnProperty.call(overridableKeys, keyNode) && _hasOwnProperty.call(_result, keyNode)) {
        state.line = startLine || state.line;
        state.lineStart = startLineStart || state.lineStart;
        state.position = startPos || state.position;
        throwError(state, "duplicated mapping key");
      }
      setProperty(_result, keyNode, valueNode);
      delete overridableKeys[keyNode];
    }
    return _result;
  }
  function readLineBreak(state) {
    const ch = state.input.charCodeAt(state.position);
    if (ch === 10) {
      state.position++;
    } else if (ch === 13) {
      state.position++;
      if (state.input.charCodeAt(state.position) === 10) {
        state.position++;
      }
    } else {
      throwError(state, "a line break is expected");
    }
    state.line += 1;
    state.lineStart = state.position;
    state.firstTabInLine = -1;
  }
  function skipSeparationSpace(state, allowComments, checkIndent) {
    let lineBreaks = 0;
    let ch = state.input.charCodeAt(state.position);
    while (ch !== 0) {
      while (isWhiteSpace(ch)) {
        if (ch === 9 && state.firstTabInLine === -1) {
          state.firstTabInLine = state.position;
        }
        ch = state.input.charCodeAt(++state.position);
      }
      if (allowComments && ch === 35) {
        do {
          ch = state.input.charCodeAt(++state.position);
        } while (ch !== 10 && ch !== 13 && ch !== 0);
      }
      if (isEol(ch)) {
        readLineBreak(state);
        ch = state.input.charCodeAt(state.position);
        lineBreaks++;
        state.lineIndent = 0;
        while (ch === 32) {
          state.lineIndent++;
          ch = state.input.charCodeAt(++state.position);
        }
      } else {
        break;
      }
    }
    if (checkIndent !== -1 && lineBreaks !== 0 && state.lineIndent < checkIndent) {
      throwWarning(state, "deficient indentation");
    }
    return lineBreaks;
  }
  function testDocumentSeparator(state) {
    let _position = state.position;
    let ch = state.input.charCodeAt(_position);
    if ((ch === 45 || ch === 46) && ch === state.input.charCodeAt(_position + 1) && ch === state.input.charCodeAt(_position + 2)) {
      _position += 3;
      ch = state.input.charCodeAt(_position);
      if (ch === 0 || isWsOrEol(ch)) {
        return true;
      }
    }
    return false;
  }
  function writeFoldedLines(state, count) {
    if (count === 1) {
      state.result += " ";
    } else if (count > 1) {
      state.result += common2.repeat("\n", count - 1);
    }
  }
  function readPlainScalar(state, nodeIndent, withinFlowCollection) {
    let captureStart;
    let captureEnd;
    let hasPendingContent;
    let _line;
    let _lineStart;
    let _lineIndent;
    const _kind = state.kind;
    const _result = state.result;
    let ch = state.input.charCodeAt(state.position);
    if (isWsOrEol(ch) || isFlowIndicator(ch) || ch === 35 || ch === 38 || ch === 42 || ch === 33 || ch === 124 || ch === 62 || ch === 39 || ch === 34 || ch === 37 || ch === 64 || ch === 96) {
      return false;
    }
    if (ch === 63 || ch === 45) {
      const following = state.input.charCodeAt(state.position + 1);
      if (isWsOrEol(following) || withinFlowCollection && isFlowIndicator(following)) {
        return false;
      }
    }
    state.kind = "scalar";
    state.result = "";
    captureStart = captureEnd = state.position;
    hasPendingContent = false;
    while (ch !== 0) {
      if (ch === 58) {
        const following = state.input.charCodeAt(state.position + 1);
        if (isWsOrEol(following) || withinFlowCollection && isFlowIndicator(following)) {
          break;
        }
      } else if (ch === 35) {
        const preceding = state.input.charCodeAt(state.position - 1);
        if (isWsOrEol(preceding)) {
          break;
        }
      } else if (state.position === state.lineStart && testDocumentSeparator(state) || withinFlowCollection && isFlowIndicator(ch)) {
        break;
      } else if (isEol(ch)) {
        _line = state.line;
        _lineStart = state.lineStart;
        _lineIndent = state.lineIndent;
        skipSeparationSpace(state, false, -1);
        if (state.lineIndent >= nodeIndent) {
          hasPendingContent = true;
          ch = state.input.charCodeAt(state.position);
          continue;
        } else {
          state.position = captureEnd;
          state.line = _line;
          state.lineStart = _lineStart;
          state.lineIndent = _lineIndent;
          break;
        }
      }
      if (hasPendingContent) {
        captureSegment(state, captureStart, captureEnd, false);
        writeFoldedLines(state, state.line - _line);
        captureStart = captureEnd = state.position;
        hasPendingContent = false;
      }
      if (!isWhiteSpace(ch)) {
        captureEnd = state.position + 1;
      }
      ch = state.input.charCodeAt(++state.position);
    }
    captureSegment(state, captureStart, captureEnd, false);
    if (state.result) {
      return true;
    }
    state.kind = _kind;
    state.result = _result;
    return false;
  }
  function readSingleQuotedScalar(state, nodeIndent) {
    let captureStart;
    let captureEnd;
    let ch = state.input.charCodeAt(state.position);
    if (ch !== 39) {
      return false;
    }
    state.kind = "scalar";
    state.result = "";
    state.position++;
    captureStart = captureEnd = state.position;
    while ((ch = state.input.charCodeAt(state.position)) !== 0) {
      if (ch === 39) {
        captureSegment(state, captureStart, state.position, true);
        ch = state.input.charCodeAt(++state.position);
        if (ch === 39) {
          captureStart = state.position;
          state.position++;
          captureEnd = state.position;
        } else {
          return true;
        }
      } else if (isEol(ch)) {
        captureSegment(state, captureStart, captureEnd, true);
        writeFoldedLines(state, skipSeparationSpace(state, false, nodeIndent));
        captureStart = captureEnd = state.position;
      } else if (state.position === state.lineStart && testDocumentSeparator(state)) {
        throwError(state, "unexpected end of the document within a single quoted scalar");
      } else {
        state.position++;
        if (!isWhiteSpace(ch)) {
          captureEnd = state.position;
        }
      }
    }
    throwError(state, "unexpected end of the stream within a single quoted scalar");
  }
  function readDoubleQuotedScalar(state, nodeIndent) {
    let captureStart;
    let captureEnd;
    let tmp;
    let ch = state.input.charCodeAt(state.position);
    if (ch !== 34) {
      return false;
    }
    state.kind = "scalar";
    state.result = "";
    state.position++;
    captureStart = captureEnd = state.position;
    while ((ch = state.input.charCodeAt(state.position)) !== 0) {
      if (ch === 34) {
        captureSegment(state, captureStart, state.position, true);
        state.position++;
        return true;
      } else if (ch === 92) {
        captureSegment(state, captureStart, state.position, true);
        ch = state.input.charCodeAt(++state.position);
        if (isEol(ch)) {
          skipSeparationSpace(state, false, nodeIndent);
        } else if (ch < 256 && simpleEscapeCheck[ch]) {
          state.result += simpleEscapeMap[ch];
          state.position++;
        } else if ((tmp = escapedHexLen(ch)) > 0) {
          let hexLength = tmp;
          let hexResult = 0;
          for (; hexLength > 0; hexLength--) {
            ch = state.input.charCodeAt(++state.position);
            if ((tmp = fromHexCode(ch)) >= 0) {
              hexResult = (hexResult << 4) + tmp;
            } else {
              throwError(state, "expected hexadecimal character");
            }
          }
          state.result += charFromCodepoint(hexResult);
          state.position++;
        } else {
          throwError(state, "unknown escape sequence");
        }
        captureStart = captureEnd = state.position;
      } else if (isEol(ch)) {
        captureSegment(state, captureStart, captureEnd, true);
        writeFoldedLines(state, skipSeparationSpace(state, false, nodeIndent));
        captureStart = captureEnd = state.position;
      } else if (state.position === state.lineStart && testDocumentSeparator(state)) {
        throwError(state, "unexpected end of the document within a double quoted scalar");
      } else {
        state.position++;
        if (!isWhiteSpace(ch)) {
          captureEnd = state.position;
        }
      }
    }
    throwError(state, "unexpected end of the stream within a double quoted scalar");
  }
  function readFlowCollection(state, nodeIndent) {
    let readNext = true;
    let _line;
    let _lineStart;
    let _pos;
    const _tag = state.tag;
    let _result;
    const _anchor = state.anchor;
    let terminator;
    let isPair;
    let isExplicitPair;
    let isMapping;
    const overridableKeys = /* @__PURE__ */ Object.create(null);
    let keyNode;
    let keyTag;
    let valueNode;
    let ch = state.input.charCodeAt(state.position);
    if (ch === 91) {
      terminator = 93;
      isMapping = false;
      _result = [];
    } else if (ch === 123) {
      terminator = 125;
      isMapping = true;
      _result = {};
    } else {
      return false;
    }
    if (state.anchor !== null) {
      storeAnchor(state, state.anchor, _result);
    }
    ch = state.input.charCodeAt(++state.position);
    while (ch !== 0) {
      skipSeparationSpace(state, true, nodeIndent);
      ch = state.input.charCodeAt(state.position);
      if (ch === terminator) {
        state.position++;
        state.tag = _tag;
        state.anchor = _anchor;
        state.kind = isMapping ? "mapping" : "sequence";
        state.result = _result;
        return true;
      } else if (!readNext) {
        throwError(state, "missed comma between flow collection entries");
      } else if (ch === 44) {
        throwError(state, "expected the node content, but found ','");
      }
      keyTag = keyNode = valueNode = null;
      isPair = isExplicitPair = false;
      if (ch === 63) {
        const following = state.input.charCodeAt(state.position + 1);
        if (isWsOrEol(following)) {
          isPair = isExplicitPair = true;
          state.position++;
          skipSeparationSpace(state, true, nodeIndent);
        }
      }
      _line = state.line;
      _lineStart = state.lineStart;
      _pos = state.position;
      composeNode(state, nodeIndent, CONTEXT_FLOW_IN, false, true);
      keyTag = state.tag;
      keyNode = state.result;
      skipSeparationSpace(state, true, nodeIndent);
      ch = state.input.charCodeAt(state.position);
      if ((isExplicitPair || state.line === _line) && ch === 58) {
        isPair = true;
        ch = state.input.charCodeAt(++state.position);
        skipSeparationSpace(state, true, nodeIndent);
        composeNode(state, nodeIndent, CONTEXT_FLOW_IN, false, true);
        valueNode = state.result;
      }
      if (isMapping) {
        storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, valueNode, _line, _lineStart, _pos);
      } else if (isPair) {
        _result.push(storeMappingPair(state, null, overridableKeys, keyTag, keyNode, valueNode, _line, _lineStart, _pos));
      } else {
        _result.push(keyNode);
      }
      skipSeparationSpace(state, true, nodeIndent);
      ch = state.input.charCodeAt(state.position);
      if (ch === 44) {
        readNext = true;
        ch = state.input.charCodeAt(++state.position);
      } else {
        readNext = false;
      }
    }
    throwError(state, "unexpected end of the stream within a flow collection");
  }
  function readBlockScalar(state, nodeIndent) {
    let folding;
    let chomping = CHOMPING_CLIP;
    let didReadContent = false;
    let detectedIndent = false;
    let textIndent = nodeIndent;
    let emptyLines = 0;
    let atMoreIndented = false;
    let tmp;
    let ch = state.input.charCodeAt(state.position);
    if (ch === 124) {
      folding = false;
    } else if (ch === 62) {
      folding = true;
    } else {
      return false;
    }
    state.kind = "scalar";
    state.result = "";
    while (ch !== 0) {
      ch = state.input.charCodeAt(++state.position);
      if (ch === 43 || ch === 45) {
        if (CHOMPING_CLIP === chomping) {
          chomping = ch === 43 ? CHOMPING_KEEP : CHOMPING_STRIP;
        } else {
          throwError(state, "repeat of a chomping mode identifier");
        }
      } else if ((tmp = fromDecimalCode(ch)) >= 0) {
        if (tmp === 0) {
          throwError(state, "bad explicit indentation width of a block scalar; it cannot be less than one");
        } else if (!detectedIndent) {
          textIndent = nodeIndent + tmp - 1;
          detectedIndent = true;
        } else {
          throwError(state, "repeat of an indentation width identifier");
        }
      } else {
        break;
      }
    }
    if (isWhiteSpace(ch)) {
      do {
        ch = state.input.charCodeAt(++state.position);
      } while (isWhiteSpace(ch));
      if (ch === 35) {
        do {
          ch = state.input.charCodeAt(++state.position);
        } while (!isEol(ch) && ch !== 0);
      }
    }
    while (ch !== 0) {
      readLineBreak(state);
      state.lineIndent = 0;
      ch = state.input.charCodeAt(state.position);
      while ((!detectedIndent || state.lineIndent < textIndent) && ch === 32) {
        state.lineIndent++;
        ch = state.input.charCodeAt(++state.position);
      }
      if (!detectedIndent && state.lineIndent > textIndent) {
        textIndent = state.lineIndent;
      }
      if (isEol(ch)) {
        emptyLines++;
        continue;
      }
      if (!detectedIndent && textIndent === 0) {
        throwError(state, "missing indentation for block scalar");
      }
      if (state.lineIndent < textIndent) {
        if (chomping === CHOMPING_KEEP) {
          state.result += common2.repeat("\n", didReadContent ? 1 + emptyLines : emptyLines);
        } else if (chomping === CHOMPING_CLIP) {
          if (didReadContent) {
            state.result += "\n";
          }
        }
        break;
      }
      if (folding) {
        if (isWhiteSpace(ch)) {
          atMoreIndented = true;
          state.result += common2.repeat("\n", didReadContent ? 1 + emptyLines : emptyLines);
        } else if (atMoreIndented) {
          atMoreIndented = false;
          state.result += common2.repeat("\n", emptyLines + 1);
        } else if (emptyLines === 0) {
          if (didReadContent) {
            state.result += " ";
          }
        } else {
          state.result += common2.repeat("\n", emptyLines);
        }
      } else {
        state.result += common2.repeat("\n", didReadContent ? 1 + emptyLines : emptyLines);
      }
      didReadContent = true;
      detectedIndent = true;
      emptyLines = 0;
      const captureStart = state.position;
      while (!isEol(ch) && ch !== 0) {
        ch = state.input.charCodeAt(++state.position);
      }
      captureSegment(state, captureStart, state.position, false);
    }
    return true;
  }
  function readBlockSequence(state, nodeIndent) {
    const _tag = state.tag;
    const _anchor = state.anchor;
    const _result = [];
    let detected = false;
    if (state.firstTabInLine !== -1) return false;
    if (state.anchor !== null) {
      storeAnchor(state, state.anchor, _result);
    }
    let ch = state.input.charCodeAt(state.position);
    while (ch !== 0) {
      if (state.firstTabInLine !== -1) {
        state.position = state.firstTabInLine;
        throwError(state, "tab characters must not be used in indentation");
      }
      if (ch !== 45) {
        break;
      }
      const following = state.input.charCodeAt(state.position + 1);
      if (!isWsOrEol(following)) {
        break;
      }
      detected = true;
      state.position++;
      if (skipSeparationSpace(state, true, -1)) {
        if (state.lineIndent <= nodeIndent) {
          _result.push(null);
          ch = state.input.charCodeAt(state.position);
          continue;
        }
      }
      const _line = state.line;
      composeNode(state, nodeIndent, CONTEXT_BLOCK_IN, false, true);
      _result.push(state.result);
      skipSeparationSpace(state, true, -1);
      ch = state.input.charCodeAt(state.position);
      if ((state.line === _line || state.lineIndent > nodeIndent) && ch !== 0) {
        throwError(state, "bad indentation of a sequence entry");
      } else if (state.lineIndent < nodeIndent) {
        break;
      }
    }
    if (detected) {
      state.tag = _tag;
      state.anchor = _anchor;
      state.kind = "sequence";
      state.result = _result;
      return true;
    }
    return false;
  }
  function readBlockMapping(state, nodeIndent, flowIndent) {
    let allowCompact;
    let _keyLine;
    let _keyLineStart;
    let _keyPos;
    const _tag = state.tag;
    const _anchor = state.anchor;
    const _result = {};
    const overridableKeys = /* @__PURE__ */ Object.create(null);
    let keyTag = null;
    let keyNode = null;
    let valueNode = null;
    let atExplicitKey = false;
    let detected = false;
    if (state.firstTabInLine !== -1) return false;
    if (state.anchor !== null) {
      storeAnchor(state, state.anchor, _result);
    }
    let ch = state.input.charCodeAt(state.position);
    while (ch !== 0) {
      if (!atExplicitKey && state.firstTabInLine !== -1) {
        state.position = state.firstTabInLine;
        throwError(state, "tab characters must not be used in indentation");
      }
      const following = state.input.charCodeAt(state.position + 1);
      const _line = state.line;
      if ((ch === 63 || ch === 58) && isWsOrEol(following)) {
        if (ch === 63) {
          if (atExplicitKey) {
            storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, null, _keyLine, _keyLineStart, _keyPos);
            keyTag = keyNode = valueNode = null;
          }
          detected = true;
          atExplicitKey = true;
          allowCompact = true;
        } else if (atExplicitKey) {
          atExplicitKey = false;
          allowCompact = true;
        } else {
          throwError(state, "incomplete explicit mapping pair; a key node is missed; or followed by a non-tabulated empty line");
        }
        state.position += 1;
        ch = following;
      } else {
        _keyLine = state.line;
        _keyLineStart = state.lineStart;
        _keyPos = state.position;
        if (!composeNode(state, flowIndent, CONTEXT_FLOW_OUT, false, true)) {
          break;
        }
        if (state.line === _line) {
          ch = state.input.charCodeAt(state.position);
          while (isWhiteSpace(ch)) {
            ch = state.input.charCodeAt(++state.position);
          }
          if (ch === 58) {
            ch = state.input.charCodeAt(++state.position);
            if (!isWsOrEol(ch)) {
              throwError(state, "a whitespace character is expected after the key-value separator within a block mapping");
            }
            if (atExplicitKey) {
              storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, null, _keyLine, _keyLineStart, _keyPos);
              keyTag = keyNode = valueNode = null;
            }
            detected = true;
            atExplicitKey = false;
            allowCompact = false;
            keyTag = state.tag;
            keyNode = state.result;
          } else if (detected) {
            throwError(state, "can not read an implicit mapping pair; a colon is missed");
          } else {
            state.tag = _tag;
            state.anchor = _anchor;
            return true;
          }
        } else if (detected) {
          throwError(state, "can not read a block mapping entry; a multiline key may not be an implicit key");
        } else {
          state.tag = _tag;
          state.anchor = _anchor;
          return true;
        }
      }
      if (state.line === _line || state.lineIndent > nodeIndent) {
        if (atExplicitKey) {
          _keyLine = state.line;
          _keyLineStart = state.lineStart;
          _keyPos = state.position;
        }
        if (composeNode(state, nodeIndent, CONTEXT_BLOCK_OUT, true, allowCompact)) {
          if (atExplicitKey) {
            keyNode = state.result;
          } else {
            valueNode = state.result;
          }
        }
        if (!atExplicitKey) {
          storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, valueNode, _keyLine, _keyLineStart, _keyPos);
          keyTag = keyNode = valueNode = null;
        }
        skipSeparationSpace(state, true, -1);
        ch = state.input.charCodeAt(state.position);
      }
      if ((state.line === _line || state.lineIndent > nodeIndent) && ch !== 0) {
        throwError(state, "bad indentation of a mapping entry");
      } else if (state.lineIndent < nodeIndent) {
        break;
      }
    }
    if (atExplicitKey) {
      storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, null, _keyLine, _keyLineStart, _keyPos);
    }
    if (detected) {
      state.tag = _tag;
      state.anchor = _anchor;
      state.kind = "mapping";
      state.result = _result;
    }
    return detected;
  }
  function readTagProperty(state) {
    let isVerbatim = false;
    let isNamed = false;
    let tagHandle;
    let tagName;
    let ch = state.input.charCodeAt(state.position);
    if (ch !== 33) return false;
    if (state.tag !== null) {
      throwError(state, "duplication of a tag property");
    }
    ch = state.input.charCodeAt(++state.position);
    if (ch === 60) {
      isVerbatim = true;
      ch = state.input.charCodeAt(++state.position);
    } else if (ch === 33) {
      isNamed = true;
      tagHandle = "!!";
      ch = state.input.charCodeAt(++state.position);
    } else {
      tagHandle = "!";
    }
    let _position = state.position;
    if (isVerbatim) {
      do {
        ch = state.input.charCodeAt(++state.position);
      } while (ch !== 0 && ch !== 62);
      if (state.position < state.length) {
        tagName = state.input.slice(_position, state.position);
        ch = state.input.charCodeAt(++state.position);
      } else {
        throwError(state, "unexpected end of the stream within a verbatim tag");
      }
    } else {
      while (ch !== 0 && !isWsOrEol(ch)) {
        if (ch === 33) {
          if (!isNamed) {
            tagHandle = state.input.slice(_position - 1, state.position + 1);
            if (!PATTERN_TAG_HANDLE.test(tagHandle)) {
              throwError(state, "named tag handle cannot contain such characters");
            }
            isNamed = true;
            _position = state.position + 1;
          } else {
            throwError(state, "tag suffix cannot contain exclamation marks");
          }
        }
        ch = state.input.charCodeAt(++state.position);
      }
      tagName = state.input.slice(_position, state.position);
      if (PATTERN_FLOW_INDICATORS.test(tagName)) {
        throwError(state, "tag suffix cannot contain flow indicator characters");
      }
    }
    if (tagName && !PATTERN_TAG_URI.test(tagName)) {
      throwError(state, "tag name cannot contain such characters: " + tagName);
    }
    try {
      tagName = decodeURIComponent(tagName);
    } catch (err) {
      throwError(state, "tag name is malformed: " + tagName);
    }
    if (isVerbatim) {
      state.tag = tagName;
    } else if (_hasOwnProperty.call(state.tagMap, tagHandle)) {
      state.tag = state.tagMap[tagHandle] + tagName;
    } else if (tagHandle === "!") {
      state.tag = "!" + tagName;
    } else if (tagHandle === "!!") {
      state.tag = "tag:yaml.org,2002:" + tagName;
    } else {
      throwError(state, 'undeclared tag handle "' + tagHandle + '"');
    }
    return true;
  }
  function readAnchorProperty(state) {
    let ch = state.input.charCodeAt(state.position);
    if (ch !== 38) return false;
    if (state.anchor !== null) {
      throwError(state, "duplication of an anchor property");
    }
    ch = state.input.charCodeAt(++state.position);
    const _position = state.position;
    while (ch !== 0 && !isWsOrEol(ch) && !isFlowIndicator(ch)) {
      ch = state.input.charCodeAt(++state.position);
    }
    if (state.position === _position) {
      throwError(state, "name of an anchor node must contain at least one character");
    }
    state.anchor = state.input.slice(_position, state.position);
    return true;
  }
  function readAlias(state) {
    let ch = state.input.charCodeAt(state.position);
    if (ch !== 42) return false;
    ch = state.input.charCodeAt(++state.position);
    const _position = state.position;
    while (ch !== 0 && !isWsOrEol(ch) && !isFlowIndicator(ch)) {
      ch = state.input.charCodeAt(++state.position);
    }
    if (state.position === _position) {
      throwError(state, "name of an alias node must contain at least one character");
    }
    const alias = state.input.slice(_position, state.position);
    if (!_hasOwnProperty.call(state.anchorMap, alias)) {
      throwError(state, 'unidentified alias "' + alias + '"');
    }
    state.result = state.anchorMap[alias];
    skipSeparationSpace(state, true, -1);
    return true;
  }
  function tryReadBlockMappingFromProperty(state, propertyStart, nodeIndent, flowIndent) {
    const fallbackState = snapshotState(state);
    beginAnchorTransaction(state);
    restoreState(state, propertyStart);
    state.tag = null;
    state.anchor = null;
    state.kind = null;
    state.result = null;
    if (readBlockMapping(state, nodeIndent, flowIndent) && state.kind === "mapping") {
      commitAnchorTransaction(state);
      return true;
    }
    rollbackAnchorTransaction(state);
    restoreState(state, fallbackState);
    return false;
  }
  function composeNode(state, parentIndent, nodeContext, allowToSeek, allowCompact) {
    let allowBlockScalars;
    let allowBlockCollections;
    let indentStatus = 1;
    let atNewLine = false;
    let hasContent = false;
    let propertyStart = null;
    let type2;
    let flowIndent;
    let blockIndent;
    if (state.depth >= state.maxDepth) {
      throwError(state, "nesting exceeded maxDepth (" + state.maxDepth + ")");
    }
    state.depth += 1;
    if (state.listener !== null) {
      state.listener("open", state);
    }
    state.tag = null;
    state.anchor = null;
    state.kind = null;
    state.result = null;
    const allowBlockStyles = allowBlockScalars = allowBlockCollections = CONTEXT_BLOCK_OUT === nodeContext || CONTEXT_BLOCK_IN === nodeContext;
    if (allowToSeek) {
      if (skipSeparationSpace(state, true, -1)) {
        atNewLine = true;
        if (state.lineIndent > parentIndent) {
          indentStatus = 1;
        } else if (state.lineIndent === parentIndent) {
          indentStatus = 0;
        } else if (state.lineIndent < parentIndent) {
          indentStatus = -1;
        }
      }
    }
    if (indentStatus === 1) {
      while (true) {
        const ch = state.input.charCodeAt(state.position);
        const propertyState = snapshotState(state);
        if (atNewLine && (ch === 33 && state.tag !== null || ch === 38 && state.anchor !== null)) {
          break;
        }
        if (!readTagProperty(state) && !readAnchorProperty(state)) {
          break;
        }
        if (propertyStart === null) {
          propertyStart = propertyState;
        }
        if (skipSeparationSpace(state, true, -1)) {
          atNewLine = true;
          allowBlockCollections = allowBlockStyles;
          if (state.lineIndent > parentIndent) {
            indentStatus = 1;
          } else if (state.lineIndent === parentIndent) {
            indentStatus = 0;
          } else if (state.lineIndent < parentIndent) {
            indentStatus = -1;
          }
        } else {
          allowBlockCollections = false;
        }
      }
    }
    if (allowBlockCollections) {
      allowBlockCollections = atNewLine || allowCompact;
    }
    if (indentStatus === 1 || CONTEXT_BLOCK_OUT === nodeContext) {
      if (CONTEXT_FLOW_IN === nodeContext || CONTEXT_FLOW_OUT === nodeContext) {
        flowIndent = parentIndent;
      } else {
        flowIndent = parentIndent + 1;
      }
      blockIndent = state.position - state.lineStart;
      if (indentStatus === 1) {
        if (allowBlockCollections && (readBlockSequence(state, blockIndent) || readBlockMapping(state, blockIndent, flowIndent)) || readFlowCollection(state, flowIndent)) {
          hasContent = true;
        } else {
          const ch = state.input.charCodeAt(state.position);
          if (propertyStart !== null && allowBlockStyles && !allowBlockCollections && ch !== 124 && ch !== 62 && tryReadBlockMappingFromProperty(
            state,
            propertyStart,
            propertyStart.position - propertyStart.lineStart,
            flowIndent
          )) {
            hasContent = true;
          } else if (allowBlockScalars && readBlockScalar(state, flowIndent) || readSingleQuotedScalar(state, flowIndent) || readDoubleQuotedScalar(state, flowIndent)) {
            hasContent = true;
          } else if (readAlias(state)) {
            hasContent = true;
            if (state.tag !== null || state.anchor !== null) {
              throwError(state, "alias node should not have any properties");
            }
          } else if (readPlainScalar(state, flowIndent, CONTEXT_FLOW_IN === nodeContext)) {
            hasContent = true;
            if (state.tag === null) {
              state.tag = "?";
            }
          }
          if (state.anchor !== null) {
            storeAnchor(state, state.anchor, state.result);
          }
        }
      } else if (indentStatus === 0) {
        hasContent = allowBlockCollections && readBlockSequence(state, blockIndent);
      }
    }
    if (state.tag === null) {
      if (state.anchor !== null) {
        storeAnchor(state, state.anchor, state.result);
      }
    } else if (state.tag === "?") {
      if (state.result !== null && state.kind !== "scalar") {
        throwError(state, 'unacceptable node kind for !<?> tag; it should be "scalar", not "' + state.kind + '"');
      }
      for (let typeIndex = 0, typeQuantity = state.implicitTypes.length; typeIndex < typeQuantity; typeIndex += 1) {
        type2 = state.implicitTypes[typeIndex];
        if (type2.resolve(state.result)) {
          state.result = type2.construct(state.result);
          state.tag = type2.tag;
          if (state.anchor !== null) {
            storeAnchor(state, state.anchor, state.result);
          }
          break;
        }
      }
    } else if (state.tag !== "!") {
      if (_hasOwnProperty.call(state.typeMap[state.kind || "fallback"], state.tag)) {
        type2 = state.typeMap[state.kind || "fallback"][state.tag];
      } else {
        type2 = null;
        const typeList = state.typeMap.multi[state.kind || "fallback"];
        for (let typeIndex = 0, typeQuantity = typeList.length; typeIndex < typeQuantity; typeIndex += 1) {
          if (state.tag.slice(0, typeList[typeIndex].tag.length) === typeList[typeIndex].tag) {
            type2 = typeList[typeIndex];
            break;
          }
        }
      }
      if (!type2) {
        throwError(state, "unknown tag !<" + state.tag + ">");
      }
      if (state.result !== null && type2.kind !== state.kind) {
        throwError(state, "unacceptable node kind for !<" + state.tag + '> tag; it should be "' + type2.kind + '", not "' + state.kind + '"');
      }
      if (!type2.resolve(state.result, state.tag)) {
        throwError(state, "cannot resolve a node with !<" + state.tag + "> explicit tag");
      } else {
        state.result = type2.construct(state.result, state.tag);
        if (state.anchor !== null) {
          storeAnchor(state, state.anchor, state.result);
        }
      }
    }
    if (state.listener !== null) {
      state.listener("close", state);
    }
    state.depth -= 1;
    return state.tag !== null || state.anchor !== null || hasContent;
  }
  function readDocument(state) {
    const documentStart = state.position;
    let hasDirectives = false;
    let ch;
    state.version = null;
    state.checkLineBreaks = state.legacy;
    state.tagMap = /* @__PURE__ */ Object.create(null);
    state.anchorMap = /* @__PURE__ */ Object.create(null);
    while ((ch = state.input.charCodeAt(state.position)) !== 0) {
      skipSeparationSpace(state, true, -1);
      ch = state.input.charCodeAt(state.position);
      if (state.lineIndent > 0 || ch !== 37) {
        break;
      }
      hasDirectives = true;
      ch = state.input.charCodeAt(++state.position);
      let _position = state.position;
      while (ch !== 0 && !isWsOrEol(ch)) {
        ch = state.input.charCodeAt(++state.position);
      }
      const directiveName = state.input.slice(_position, state.position);
      const directiveArgs = [];
      if (directiveName.length < 1) {
        throwError(state, "directive name must not be less than one character in length");
      }
      while (ch !== 0) {
        while (isWhiteSpace(ch)) {
          ch = state.input.charCodeAt(++state.position);
        }
        if (ch === 35) {
          do {
            ch = state.input.charCodeAt(++state.position);
          } while (ch !== 0 && !isEol(ch));
          break;
        }
        if (isEol(ch)) break;
        _position = state.position;
        while (ch !== 0 && !isWsOrEol(ch)) {
          ch = state.input.charCodeAt(++state.position);
        }
        directiveArgs.push(state.input.slice(_position, state.position));
      }
      if (ch !== 0) readLineBreak(state);
      if (_hasOwnProperty.call(directiveHandlers, directiveName)) {
        directiveHandlers[directiveName](state, directiveName, directiveArgs);
      } else {
        throwWarning(state, 'unknown document directive "' + directiveName + '"');
      }
    }
    skipSeparationSpace(state, true, -1);
    if (state.lineIndent === 0 && state.input.charCodeAt(state.position) === 45 && state.input.charCodeAt(state.position + 1) === 45 && state.input.charCodeAt(state.position + 2) === 45) {
      state.position += 3;
      skipSeparationSpace(state, true, -1);
    } else if (hasDirectives) {
      throwError(state, "directives end mark is expected");
    }
    composeNode(state, state.lineIndent - 1, CONTEXT_BLOCK_OUT, false, true);
    skipSeparationSpace(state, true, -1);
    if (state.checkLineBreaks && PATTERN_NON_ASCII_LINE_BREAKS.test(state.input.slice(documentStart, state.position))) {
      throwWarning(state, "non-ASCII line breaks are interpreted as content");
    }
    state.documents.push(state.result);
    if (state.position === state.lineStart && testDocumentSeparator(state)) {
      if (state.input.charCodeAt(state.position) === 46) {
        state.position += 3;
        skipSeparationSpace(state, true, -1);
      }
      return;
    }
    if (state.position < state.length - 1) {
      throwError(state, "end of the stream or a document separator is expected");
    }
  }
  function loadDocuments(input, options2) {
    input = String(input);
    options2 = options2 || {};
    if (input.length !== 0) {
      if (input.charCodeAt(input.length - 1) !== 10 && input.charCodeAt(input.length - 1) !== 13) {
        input += "\n";
      }
      if (input.charCodeAt(0) === 65279) {
        input = input.slice(1);
      }
    }
    const state = new State(input, options2);
    const nullpos = input.indexOf("\0");
    if (nullpos !== -1) {
      state.position = nullpos;
      throwError(state, "null byte is not allowed in input");
    }
    state.input += "\0";
    while (state.input.charCodeAt(state.position) === 32) {
      state.lineIndent += 1;
      state.position += 1;
    }
    while (state.position < state.length - 1) {
      readDocument(state);
    }
    return state.documents;
  }
  function loadAll2(input, iterator, options2) {
    if (iterator !== null && typeof iterator === "object" && typeof options2 === "undefined") {
      options2 = iterator;
      iterator = null;
    }
    const documents = loadDocuments(input, options2);
    if (typeof iterator !== "function") {
      return documents;
    }
    for (let index = 0, length = documents.length; index < length; index += 1) {
      iterator(documents[index]);
    }
  }
  function load2(input, options2) {
    const documents = loadDocuments(input, options2);
    if (documents.length === 0) {
      return void 0;
    } else if (documents.length === 1) {
      return documents[0];
    }
    throw new YAMLException2("expected a single document in the stream, but found more");
  }
  loader.loadAll = loadAll2;
  loader.load = load2;
  return loader;
}
var dumper = {};
var hasRequiredDumper;
function requireDumper() {
  if (hasRequiredDumper) return dumper;
  hasRequiredDumper = 1;
  const common2 = requireCommon();
  const YAMLException2 = requireException();
  const DEFAULT_SCHEMA2 = require_default();
  const _toString = Object.prototype.toString;
  const _hasOwnProperty = Object.prototype.hasOwnProperty;
  const CHAR_BOM = 65279;
  const CHAR_TAB = 9;
  const CHAR_LINE_FEED = 10;
  const CHAR_CARRIAGE_RETURN = 13;
  const CHAR_SPACE = 32;
  const CHAR_EXCLAMATION = 33;
  const CHAR_DOUBLE_QUOTE = 34;
  const CHAR_SHARP = 35;
  const CHAR_PERCENT = 37;
  const CHAR_AMPERSAND = 38;
  const CHAR_SINGLE_QUOTE = 39;
  const CHAR_ASTERISK = 42;
  const CHAR_COMMA = 44;
  const CHAR_MINUS = 45;
  const CHAR_COLON = 58;
  const CHAR_EQUALS = 61;
  const CHAR_GREATER_THAN = 62;
  const CHAR_QUESTION = 63;
  const CHAR_COMMERCIAL_AT = 64;
  const CHAR_LEFT_SQUARE_BRACKET = 91;
  const CHAR_RIGHT_SQUARE_BRACKET = 93;
  const CHAR_GRAVE_ACCENT = 96;
  const CHAR_LEFT_CURLY_BRACKET = 123;
  const CHAR_VERTICAL_LINE = 124;
  const CHAR_RIGHT_CURLY_BRACKET = 125;
  const ESCAPE_SEQUENCES = {};
  ESCAPE_SEQUENCES[0] = "\\0";
  ESCAPE_SEQUENCES[7] = "\\a";
  ESCAPE_SEQUENCES[8] = "\\b";
  ESCAPE_SEQUENCES[9] = "\\t";
  ESCAPE_SEQUENCES[10] = "\\n";
  ESCAPE_SEQUENCES[11] = "\\v";
  ESCAPE_SEQUENCES[12] = "\\f";
  ESCAPE_SEQUENCES[13] = "\\r";
  ESCAPE_SEQUENCES[27] = "\\e";
  ESCAPE_SEQUENCES[34] = '\\"';
  ESCAPE_SEQUENCES[92] = "\\\\";
  ESCAPE_SEQUENCES[133] = "\\N";
  ESCAPE_SEQUENCES[160] = "\\_";
  ESCAPE_SEQUENCES[8232] = "\\L";
  ESCAPE_SEQUENCES[8233] = "\\P";
  const DEPRECATED_BOOLEANS_SYNTAX = [
    "y",
    "Y",
    "yes",
    "Yes",
    "YES",
    "on",
    "On",
    "ON",
    "n",
    "N",
    "no",
    "No",
    "NO",
    "off",
    "Off",
    "OFF"
  ];
  const DEPRECATED_BASE60_SYNTAX = /^[-+]?[0-9_]+(?::[0-9_]+)+(?:\.[0-9_]*)?$/;
  function compileStyleMap(schema2, map2) {
    if (map2 === null) return {};
    const result = {};
    const keys = Object.keys(map2);
    for (let index = 0, length = keys.length; index < length; index += 1) {
      let tag = keys[index];
      let style = String(map2[tag]);
      if (tag.slice(0, 2) === "!!") {
        tag = "tag:yaml.org,2002:" + tag.slice(2);
      }
      const type2 = schema2.compiledTypeMap["fallback"][tag];
      if (type2 && _hasOwnProperty.call(type2.styleAliases, style)) {
        style = type2.styleAliases[style];
      }
      result[tag] = style;
    }
    return result;
  }
  function encodeHex(character) {
    let handle;
    let length;
    const string = character.toString(16).toUpperCase();
    if (character <= 255) {
      handle = "x";
      length = 2;
    } else if (character <= 65535) {
      handle = "u";
      length = 4;
    } else if (character <= 4294967295) {
      handle = "U";
      length = 8;
    } else {
      throw new YAMLException2("code point within a string may not be greater than 0xFFFFFFFF");
    }
    return "\\" + handle + common2.repeat("0", length - string.length) + string;
  }
  const QUOTING_TYPE_SINGLE = 1;
  const QUOTING_TYPE_DOUBLE = 2;
  function State(options2) {
    this.schema = options2["schema"] || DEFAULT_SCHEMA2;
    this.indent = Math.max(1, options2["indent"] || 2);
    this.noArrayIndent = options2["noArrayIndent"] || false;
    this.skipInvalid = options2["skipInvalid"] || false;
    this.flowLevel = common2.isNothing(options2["flowLevel"]) ? -1 : options2["flowLevel"];
    this.styleMap = compileStyleMap(this.schema, options2["styles"] || null);
    this.sortKeys = options2["sortKeys"] || false;
    this.lineWidth = options2["lineWidth"] || 80;
    this.noRefs = options2["noRefs"] || false;
    this.noCompatMode = options2["noCompatMode"] || false;
    this.condenseFlow = options2["condenseFlow"] || false;
    this.quotingType = options2["quotingType"] === '"' ? QUOTING_TYPE_DOUBLE : QUOTING_TYPE_SINGLE;
    this.forceQuotes = options2["forceQuotes"] || false;
    this.replacer = typeof options2["replacer"] === "function" ? options2["replacer"] : null;
    this.implicitTypes = this.schema.compiledImplicit;
    this.explicitTypes = this.schema.compiledExplicit;
    this.tag = null;
    this.result = "";
    this.duplicates = [];
    this.usedDuplicates = null;
  }
  function indentString(string, spaces) {
    const ind = common2.repeat(" ", spaces);
    let position = 0;
    let result = "";
    const length = string.length;
    while (position < length) {
      let line;
      const next = string.indexOf("\n", position);
      if (next === -1) {
        line = string.slice(position);
        position = length;
      } else {
        line = string.slice(position, next + 1);
        position = next + 1;
      }
      if (line.length && line !== "\n") result += ind;
      result += line;
    }
    return result;
  }
  function generateNextLine(state, level) {
    return "\n" + common2.repeat(" ", state.indent * level);
  }
  function testImplicitResolving(state, str22) {
    for (let index = 0, length = state.implicitTypes.length; index < length; index += 1) {
      const type2 = state.implicitTypes[index];
      if (type2.resolve(str22)) {
        return true;
      }
    }
    return false;
  }
  function isWhitespace(c) {
    return c === CHAR_SPACE || c === CHAR_TAB;
  }
  function isPrintable2(c) {
    return c >= 32 && c <= 126 || c >= 161 && c <= 55295 && c !== 8232 && c !== 8233 || c >= 57344 && c <= 65533 && c !== CHAR_BOM || c >= 65536 && c <= 1114111;
  }
  function isNsCharOrWhitespace(c) {
    return isPrintable2(c) && c !== CHAR_BOM && // - b-char
    c !== CHAR_CARRIAGE_RETURN && c !== CHAR_LINE_FEED;
  }
  function isPlainSafe(c, prev, inblock) {
    const cIsNsCharOrWhitespace = isNsCharOrWhitespace(c);
    const cIsNsChar = cIsNsCharOrWhitespace && !isWhitespace(c);
    return (
      // ns-plain-safe
      (inblock ? cIsNsCharOrWhitespace : cIsNsCharOrWhitespace && // - c-flow-indicator
      c !== CHAR_COMMA && c !== CHAR_LEFT_SQUARE_BRACKET && c !== CHAR_RIGHT_SQUARE_BRACKET && c !== CHAR_LEFT_CURLY_BRACKET && c !== CHAR_RIGHT_CURLY_BRACKET) && // ns-plain-char
      c !== CHAR_SHARP && // false on '#'
      !(prev === CHAR_COLON && !cIsNsChar) || // false on ': '
      isNsCharOrWhitespace(prev) && !isWhitespace(prev) && c === CHAR_SHARP || // change to true on '[^ ]#'
      prev === CHAR_COLON && cIsNsChar
    );
  }
  function isPlainSafeFirst(c) {
    return isPrintable2(c) && c !== CHAR_BOM && !isWhitespace(c) && // - s-white
    // - (c-indicator ::=
    // “-” | “?” | “:” | “,” | “[” | “]” | “{” | “}”
    c !== CHAR_MINUS && c !== CHAR_QUESTION && c !== CHAR_COLON && c !== CHAR_COMMA && c !== CHAR_LEFT_SQUARE_BRACKET && c !== CHAR_RIGHT_SQUARE_BRACKET && c !== CHAR_LEFT_CURLY_BRACKET && c !== CHAR_RIGHT_CURLY_BRACKET && // | “#” | “&” | “*” | “!” | “|” | “=” | “>” | “'” | “"”
    c !== CHAR_SHARP && c !== CHAR_AMPERSAND && c !== CHAR_ASTERISK && c !== CHAR_EXCLAMATION && c !== CHAR_VERTICAL_LINE && c !== CHAR_EQUALS && c !== CHAR_GREATER_THAN && c !== CHAR_SINGLE_QUOTE && c !== CHAR_DOUBLE_QUOTE && // | “%” | “@” | “`”)
    c !== CHAR_PERCENT && c !== CHAR_COMMERCIAL_AT && c !== CHAR_GRAVE_ACCENT;
  }
  function isPlainSafeLast(c) {
    return !isWhitespace(c) && c !== CHAR_COLON;
  }
  function codePointAt(string, pos) {
    const first = string.charCodeAt(pos);
    let second;
    if (first >= 55296 && first <= 56319 && pos + 1 < string.length) {
      second = string.charCodeAt(pos + 1);
      if (second >= 56320 && second <= 57343) {
        return (first - 55296) * 1024 + second - 56320 + 65536;
      }
    }
    return first;
  }
  function needIndentIndicator(string) {
    const leadingSpaceRe = /^\n* /;
    return leadingSpaceRe.test(string);
  }
  const STYLE_PLAIN = 1;
  const STYLE_SINGLE = 2;
  const STYLE_LITERAL = 3;
  const STYLE_FOLDED = 4;
  const STYLE_DOUBLE = 5;
  function chooseScalarStyle(string, singleLineOnly, indentPerLevel, lineWidth, testAmbiguousType, quotingType, forceQuotes, inblock) {
    let i;
    let char = 0;
    let prevChar = null;
    let hasLineBreak = false;
    let hasFoldableLine = false;
    const shouldTrackWidth = lineWidth !== -1;
    let previousLineBreak = -1;
    let plain = isPlainSafeFirst(codePointAt(string, 0)) && isPlainSafeLast(codePointAt(string, string.length - 1));
    if (singleLineOnly || forceQuotes) {
      for (i = 0; i < string.length; char >= 65536 ? i += 2 : i++) {
        char = codePointAt(string, i);
        if (!isPrintable2(char)) {
          return STYLE_DOUBLE;
        }
        plain = plain && isPlainSafe(char, prevChar, inblock);
        prevChar = char;
      }
    } else {
      for (i = 0; i < string.length; char >= 65536 ? i += 2 : i++) {
        char = codePointAt(string, i);
        if (char === CHAR_LINE_FEED) {
          hasLineBreak = true;
          if (shouldTrackWidth) {
            hasFoldableLine = hasFoldableLine || // Foldable line = too long, and not more-indented.
            i - previousLineBreak - 1 > lineWidth && string[previousLineBreak + 1] !== " ";
            previousLineBreak = i;
          }
        } else if (!isPrintable2(char)) {
          return STYLE_DOUBLE;
        }
        plain = plain && isPlainSafe(char, prevChar, inblock);
        prevChar = char;
      }
      hasFoldableLine = hasFoldableLine || shouldTrackWidth && (i - previousLineBreak - 1 > lineWidth && string[previousLineBreak + 1] !== " ");
    }
    if (!hasLineBreak && !hasFoldableLine) {
      if (plain && !forceQuotes && !testAmbiguousType(string)) {
        return STYLE_PLAIN;
      }
      return quotingType === QUOTING_TYPE_DOUBLE ? STYLE_DOUBLE : STYLE_SINGLE;
    }
    if (indentPerLevel > 9 && needIndentIndicator(string)) {
      return STYLE_DOUBLE;
    }
    if (!forceQuotes) {
      return hasFoldableLine ? STYLE_FOLDED : STYLE_LITERAL;
    }
    return quotingType === QUOTING_TYPE_DOUBLE ? STYLE_DOUBLE : STYLE_SINGLE;
  }
  function writeScalar(state, string, level, iskey, inblock) {
    state.dump = (function() {
      if (string.length === 0) {
        return state.quotingType === QUOTING_TYPE_DOUBLE ? '""' : "''";
      }
      if (!state.noCompatMode) {
        if (DEPRECATED_BOOLEANS_SYNTAX.indexOf(string) !== -1 || DEPRECATED_BASE60_SYNTAX.test(string)) {
          return state.quotingType === QUOTING_TYPE_DOUBLE ? '"' + string + '"' : "'" + string + "'";
        }
      }
      const indent = state.indent * Math.max(1, level);
      const lineWidth = state.lineWidth === -1 ? -1 : Math.max(Math.min(state.lineWidth, 40), state.lineWidth - indent);
      const singleLineOnly = iskey || // No block styles in flow mode.
      state.flowLevel > -1 && level >= state.flowLevel;
      function testAmbiguity(string2) {
        return testImplicitResolving(state, string2);
      }
      switch (chooseScalarStyle(
        string,
        singleLineOnly,
        state.indent,
        lineWidth,
        testAmbiguity,
        state.quotingType,
        state.forceQuotes && !iskey,
        inblock
      )) {
        case STYLE_PLAIN:
          return string;
        case STYLE_SINGLE:
          return "'" + string.replace(/'/g, "''") + "'";
        case STYLE_LITERAL:
          return "|" + blockHeader(string, state.indent) + dropEndingNewline(indentString(string, indent));
        case STYLE_FOLDED:
          return ">" + blockHeader(string, state.indent) + dropEndingNewline(indentString(foldString(string, lineWidth), indent));
        case STYLE_DOUBLE:
          return '"' + escapeString(string) + '"';
        default:
          throw new YAMLException2("impossible error: invalid scalar style");
      }
    })();
  }
  function blockHeader(string, indentPerLevel) {
    const indentIndicator = needIndentIndicator(string) ? String(indentPerLevel) : "";
    const clip = string[string.length - 1] === "\n";
    const keep = clip && (string[string.length - 2] === "\n" || string === "\n");
    const chomp = keep ? "+" : clip ? "" : "-";
    return indentIndicator + chomp + "\n";
  }
  function dropEndingNewline(string) {
    return string[string.length - 1] === "\n" ? string.slice(0, -1) : string;
  }
  function foldString(string, width) {
    const lineRe = /(\n+)([^\n]*)/g;
    let result = (function() {
      let nextLF = string.indexOf("\n");
      nextLF = nextLF !== -1 ? nextLF : string.length;
      lineRe.lastIndex = nextLF;
      return foldLine(string.slice(0, nextLF), width);
    })();
    let prevMoreIndented = string[0] === "\n" || string[0] === " ";
    let moreIndented;
    let match;
    while (match = lineRe.exec(string)) {
      const prefix = match[1];
      const line = match[2];
      moreIndented = line[0] === " ";
      result += prefix + (!prevMoreIndented && !moreIndented && line !== "" ? "\n" : "") + foldLine(line, width);
      prevMoreIndented = moreIndented;
    }
    return result;
  }
  function foldLine(line, width) {
    if (line === "" || line[0] === " ") return line;
    const breakRe = / [^ ]/g;
    let match;
    let start = 0;
    let end;
    let curr = 0;
    let next = 0;
    let result = "";
    while (match = breakRe.exec(line)) {
      next = match.index;
      if (next - start > width) {
        end = curr > start ? curr : next;
        result += "\n" + line.slice(start, end);
        start = end + 1;
      }
      curr = next;
    }
    result += "\n";
    if (line.length - start > width && curr > start) {
      result += line.slice(start, curr) + "\n" + line.slice(curr + 1);
    } else {
      result += line.slice(start);
    }
    return result.slice(1);
  }
  function escapeString(string) {
    let result = "";
    let char = 0;
    for (let i = 0; i < string.length; char >= 65536 ? i += 2 : i++) {
      char = codePointAt(string, i);
      const escapeSeq = ESCAPE_SEQUENCES[char];
      if (!escapeSeq && isPrintable2(char)) {
        result += string[i];
        if (char >= 65536) result += string[i + 1];
      } else {
        result += escapeSeq || encodeHex(char);
      }
    }
    return result;
  }
  function writeFlowSequence(state, level, object) {
    let _result = "";
    const _tag = state.tag;
    for (let index = 0, length = object.length; index < length; index += 1) {
      let value = object[index];
      if (state.replacer) {
        value = state.replacer.call(object, String(index), value);
      }
      if (writeNode(state, level, value, false, false) || typeof value === "undefined" && writeNode(state, level, null, false, false)) {
        if (_result !== "") _result += "," + (!state.condenseFlow ? " " : "");
        _result += state.dump;
      }
    }
    state.tag = _tag;
    state.dump = "[" + _result + "]";
  }
  function writeBlockSequence(state, level, object, compact) {
    let _result = "";
    const _tag = state.tag;
    for (let index = 0, length = object.length; index < length; index += 1) {
      let value = object[index];
      if (state.replacer) {
        value = state.replacer.call(object, String(index), value);
      }
      if (writeNode(state, level + 1, value, true, true, false, true) || typeof value === "undefined" && writeNode(state, level + 1, null, true, true, false, true)) {
        if (!compact || _result !== "") {
          _result += generateNextLine(state, level);
        }
        if (state.dump && CHAR_LINE_FEED === state.dump.charCodeAt(0)) {
          _result += "-";
        } else {
          _result += "- ";
        }
        _result += state.dump;
      }
    }
    state.tag = _tag;
    state.dump = _result || "[]";
  }
  function writeFlowMapping(state, level, object) {
    let _result = "";
    const _tag = state.tag;
    const objectKeyList = Object.keys(object);
    for (let index = 0, length = objectKeyList.length; index < length; index += 1) {
      let pairBuffer = "";
      if (_result !== "") pairBuffer += ", ";
      if (state.condenseFlow) pairBuffer += '"';
      const objectKey = objectKeyList[index];
      let objectValue = object[objectKey];
      if (state.replacer) {
        objectValue = state.replacer.call(object, objectKey, objectValue);
      }
      if (!writeNode(state, level, objectKey, false, false)) {
        continue;
      }
      if (state.dump.length > 1024) pairBuffer += "? ";
      pairBuffer += state.dump + (state.condenseFlow ? '"' : "") + ":" + (state.condenseFlow ? "" : " ");
      if (!writeNode(state, level, objectValue, false, false)) {
        continue;
      }
      pairBuffer += state.dump;
      _result += pairBuffer;
    }
    state.tag = _tag;
    state.dump = "{" + _result + "}";
  }
  function writeBlockMapping(state, level, object, compact) {
    let _result = "";
    const _tag = state.tag;
    const objectKeyList = Object.keys(object);
    if (state.sortKeys === true) {
      objectKeyList.sort();
    } else if (typeof state.sortKeys === "function") {
      objectKeyList.sort(state.sortKeys);
    } else if (state.sortKeys) {
      throw new YAMLException2("sortKeys must be a boolean or a function");
    }
    for (let index = 0, length = objectKeyList.length; index < length; index += 1) {
      let pairBuffer = "";
      if (!compact || _result !== "") {
        pairBuffer += generateNextLine(state, level);
      }
      const objectKey = objectKeyList[index];
      let objectValue = object[objectKey];
      if (state.replacer) {
        objectValue = state.replacer.call(object, objectKey, objectValue);
      }
      if (!writeNode(state, level + 1, objectKey, true, true, true)) {
        continue;
      }
      const explicitPair = state.tag !== null && state.tag !== "?" || state.dump && state.dump.length > 1024;
      if (explicitPair) {
        if (state.dump && CHAR_LINE_FEED === state.dump.charCodeAt(0)) {
          pairBuffer += "?";
        } else {
          pairBuffer += "? ";
        }
      }
      pairBuffer += state.dump;
      if (explicitPair) {
        pairBuffer += generateNextLine(state, level);
      }
      if (!writeNode(state, level + 1, objectValue, true, explicitPair)) {
        continue;
      }
      if (state.dump && CHAR_LINE_FEED === state.dump.charCodeAt(0)) {
        pairBuffer += ":";
      } else {
        pairBuffer += ": ";
      }
      pairBuffer += state.dump;
      _result += pairBuffer;
    }
    state.tag = _tag;
    state.dump = _result || "{}";
  }
  function detectType(state, object, explicit) {
    const typeList = explicit ? state.explicitTypes : state.implicitTypes;
    for (let index = 0, length = typeList.length; index < length; index += 1) {
      const type2 = typeList[index];
      if ((type2.instanceOf || type2.predicate) && (!type2.instanceOf || typeof object === "object" && object instanceof type2.instanceOf) && (!type2.predicate || type2.predicate(object))) {
        if (explicit) {
          if (type2.multi && type2.representName) {
            state.tag = type2.representName(object);
          } else {
            state.tag = type2.tag;
          }
        } else {
          state.tag = "?";
        }
        if (type2.represent) {
          const style = state.styleMap[type2.tag] || type2.defaultStyle;
          let _result;
          if (_toString.call(type2.represent) === "[object Function]") {
            _result = type2.represent(object, style);
          } else if (_hasOwnProperty.call(type2.represent, style)) {
            _result = type2.represent[style](object, style);
          } else {
            throw new YAMLException2("!<" + type2.tag + '> tag resolver accepts not "' + style + '" style');
          }
          state.dump = _result;
        }
        return true;
      }
    }
    return false;
  }
  function writeNode(state, level, object, block, compact, iskey, isblockseq) {
    state.tag = null;
    state.dump = object;
    if (!detectType(state, object, false)) {
      detectType(state, object, true);
    }
    const type2 = _toString.call(state.dump);
    const inblock = block;
    if (block) {
      block = state.flowLevel < 0 || state.flowLevel > level;
    }
    const objectOrArray = type2 === "[object Object]" || type2 === "[object Array]";
    let duplicateIndex;
    let duplicate;
    if (objectOrArray) {
      duplicateIndex = state.duplicates.indexOf(object);
      duplicate = duplicateIndex !== -1;
    }
    if (state.tag !== null && state.tag !== "?" || duplicate || state.indent !== 2 && level > 0) {
      compact = false;
    }
    if (duplicate && state.usedDuplicates[duplicateIndex]) {
      state.dump = "*ref_" + duplicateIndex;
    } else {
      if (objectOrArray && duplicate && !state.usedDuplicates[duplicateIndex]) {
        state.usedDuplicates[duplicateIndex] = true;
      }
      if (type2 === "[object Object]") {
        if (block && Object.keys(state.dump).length !== 0) {
          writeBlockMapping(state, level, state.dump, compact);
          if (duplicate) {
            state.dump = "&ref_" + duplicateIndex + state.dump;
          }
        } else {
          writeFlowMapping(state, level, state.dump);
          if (duplicate) {
            state.dump = "&ref_" + duplicateIndex + " " + state.dump;
          }
        }
      } else if (type2 === "[object Array]") {
        if (block && state.dump.length !== 0) {
          if (state.noArrayIndent && !isblockseq && level > 0) {
            writeBlockSequence(state, level - 1, state.dump, compact);
          } else {
            writeBlockSequence(state, level, state.dump, compact);
          }
          if (duplicate) {
            state.dump = "&ref_" + duplicateIndex + state.dump;
          }
        } else {
          writeFlowSequence(state, level, state.dump);
          if (duplicate) {
            state.dump = "&ref_" + duplicateIndex + " " + state.dump;
          }
        }
      } else if (type2 === "[object String]") {
        if (state.tag !== "?") {
          writeScalar(state, state.dump, level, iskey, inblock);
        }
      } else if (type2 === "[object Undefined]") {
        return false;
      } else {
        if (state.skipInvalid) return false;
        throw new YAMLException2("unacceptable kind of an object to dump " + type2);
      }
      if (state.tag !== null && state.tag !== "?") {
        let tagStr = encodeURI(
          state.tag[0] === "!" ? state.tag.slice(1) : state.tag
        ).replace(/!/g, "%21");
        if (state.tag[0] === "!") {
          tagStr = "!" + tagStr;
        } else if (tagStr.slice(0, 18) === "tag:yaml.org,2002:") {
          tagStr = "!!" + tagStr.slice(18);
        } else {
          tagStr = "!<" + tagStr + ">";
        }
        state.dump = tagStr + " " + state.dump;
      }
    }
    return true;
  }
  function getDuplicateReferences(object, state) {
    const objects = [];
    const duplicatesIndexes = [];
    inspectNode(object, objects, duplicatesIndexes);
    const length = duplicatesIndexes.length;
    for (let index = 0; index < length; index += 1) {
      state.duplicates.push(objects[duplicatesIndexes[index]]);
    }
    state.usedDuplicates = new Array(length);
  }
  function inspectNode(object, objects, duplicatesIndexes) {
    if (object !== null && typeof object === "object") {
      const index = objects.indexOf(object);
      if (index !== -1) {
        if (duplicatesIndexes.indexOf(index) === -1) {
          duplicatesIndexes.push(index);
        }
      } else {
        objects.push(object);
        if (Array.isArray(object)) {
          for (let i = 0, length = object.length; i < length; i += 1) {
            inspectNode(object[i], objects, duplicatesIndexes);
          }
        } else {
          const objectKeyList = Object.keys(object);
          for (let i = 0, length = objectKeyList.length; i < length; i += 1) {
            inspectNode(object[objectKeyList[i]], objects, duplicatesIndexes);
          }
        }
      }
    }
  }
  function dump2(input, options2) {
    options2 = options2 || {};
    const state = new State(options2);
    if (!state.noRefs) getDuplicateReferences(input, state);
    let value = input;
    if (state.replacer) {
      value = state.replacer.call({ "": value }, "", value);
    }
    if (writeNode(state, 0, value, true, true)) return state.dump + "\n";
    return "";
  }
  dumper.dump = dump2;
  return dumper;
}
var hasRequiredJsYaml;
function requireJsYaml() {
  if (hasRequiredJsYaml) return jsYaml;
  hasRequiredJsYaml = 1;
  const loader2 = requireLoader();
  const dumper2 = requireDumper();
  function renamed(from, to) {
    return function() {
      throw new Error("Function yaml." + from + " is removed in js-yaml 4. Use yaml." + to + " instead, which is now safe by default.");
    };
  }
  jsYaml.Type = requireType();
  jsYaml.Schema = requireSchema();
  jsYaml.FAILSAFE_SCHEMA = requireFailsafe();
  jsYaml.JSON_SCHEMA = requireJson();
  jsYaml.CORE_SCHEMA = requireCore();
  jsYaml.DEFAULT_SCHEMA = require_default();
  jsYaml.load = loader2.load;
  jsYaml.loadAll = loader2.loadAll;
  jsYaml.dump = dumper2.dump;
  jsYaml.YAMLException = requireException();
  jsYaml.types = {
    binary: requireBinary(),
    float: requireFloat(),
    map: requireMap(),
    null: require_null(),
    pairs: requirePairs(),
    set: requireSet(),
    timestamp: requireTimestamp(),
    bool: requireBool(),
    int: requireInt(),
    merge: requireMerge(),
    omap: requireOmap(),
    seq: requireSeq(),
    str: requireStr()
  };
  jsYaml.safeLoad = renamed("safeLoad", "load");
  jsYaml.safeLoadAll = renamed("safeLoadAll", "loadAll");
  jsYaml.safeDump = renamed("safeDump", "dump");
  return jsYaml;
}
var jsYamlExports = requireJsYaml();
var yaml2 = /* @__PURE__ */ getDefaultExportFromCjs(jsYamlExports);
var {
  Type,
  Schema,
  FAILSAFE_SCHEMA,
  JSON_SCHEMA,
  CORE_SCHEMA,
  DEFAULT_SCHEMA,
  load,
  loadAll,
  dump,
  YAMLException,
  types,
  safeLoad,
  safeLoadAll,
  safeDump
} = yaml2;

// src/wiki/diagnostics.ts
var MAX_QUOTED = 120;
var cutValue = (value) => value.length > MAX_QUOTED ? `${value.slice(0, MAX_QUOTED - 3)}\u2026` : value;

// src/wiki/mini-yaml.ts
var MiniYamlError = class extends Error {
  constructor(message, line) {
    super(message);
    this.line = line;
    this.name = "MiniYamlError";
  }
  line;
};
var ONE_KEY_MAP_ITEM = /^[A-Za-z_][A-Za-z0-9_-]*:(\s|$)/;
function parseScalar(raw) {
  const s = pyStrip(raw);
  if (s === "") return "";
  if (s === "null" || s === "~") return null;
  if (s === "true") return true;
  if (s === "false") return false;
  if (s.length >= 2 && (s[0] === '"' && s.endsWith('"') || s[0] === "'" && s.endsWith("'"))) return s.slice(1, -1);
  const asInt = pyParseInt(s);
  if (asInt !== void 0) return asInt;
  const asFloat = pyParseFloat(s);
  if (asFloat !== void 0) return asFloat;
  return s;
}
var newPyDict = () => /* @__PURE__ */ Object.create(null);
var partition = (s, sep) => {
  const at = s.indexOf(sep);
  return [s.slice(0, at), s.slice(at + sep.length)];
};
var isSkippable = (line) => pyStrip(line) === "" || pyLStrip(line).startsWith("#");
function parseMiniYaml(block) {
  const data = newPyDict();
  const keyLines = /* @__PURE__ */ new Map();
  const lines = pySplitLines(block);
  const n = lines.length;
  let i = 0;
  while (i < n) {
    const line = pyRStrip(lines[i]);
    if (line === "" || line.startsWith("#")) {
      i++;
      continue;
    }
    if (!line.includes(":")) throw new MiniYamlError(`malformed line (no colon): ${pyStrRepr(line)}`, i + 1);
    const [rawKey, rawRest] = partition(line, ":");
    const key = pyStrip(rawKey);
    const rest = pyStrip(rawRest);
    keyLines.set(key, i + 1);
    if (rest === "") {
      let j = i + 1;
      while (j < n && isSkippable(lines[j])) j++;
      if (j >= n) {
        data[key] = [];
        i++;
        continue;
      }
      if (pyLStrip(lines[j]).startsWith("- ")) {
        const items = [];
        let k2 = j;
        while (k2 < n) {
          const itemLine = pyRStrip(lines[k2]);
          if (itemLine === "") {
            k2++;
            continue;
          }
          const s = pyLStrip(itemLine);
          if (!s.startsWith("- ") || itemLine.length - s.length < 2) break;
          const content = s.slice(2);
          if (ONE_KEY_MAP_ITEM.test(content)) {
            const [ck, cv] = partition(content, ":");
            const item = newPyDict();
            item[pyStrip(ck)] = parseScalar(cv);
            items.push(item);
          } else items.push(parseScalar(content));
          k2++;
        }
        data[key] = items;
        i = k2;
        continue;
      }
      const nested = newPyDict();
      let k = j;
      while (k < n) {
        const childLine = pyRStrip(lines[k]);
        if (childLine === "") {
          k++;
          continue;
        }
        const s = pyLStrip(childLine);
        if (childLine.length - s.length < 2) break;
        if (!s.includes(":")) throw new MiniYamlError(`malformed nested line: ${pyStrRepr(childLine)}`, k + 1);
        const [ck, cv] = partition(s, ":");
        const childKey = pyStrip(ck);
        nested[childKey] = parseScalar(cv);
        keyLines.set(`${key}.${childKey}`, k + 1);
        k++;
      }
      data[key] = nested;
      i = k;
      continue;
    }
    if (rest.startsWith("[")) {
      if (!rest.endsWith("]")) throw new MiniYamlError(`unterminated inline list for ${key}`, i + 1);
      const inner = pyStrip(rest.slice(1, -1));
      data[key] = inner === "" ? [] : inner.split(",").map(parseScalar);
      i++;
      continue;
    }
    data[key] = parseScalar(rest);
    i++;
  }
  return { data, keyLines };
}

// src/wiki/frontmatter.ts
var RefusedFrontmatterLanguage = class extends Error {
  constructor(language) {
    super(`frontmatter language '${language}' is refused: frontmatter is data, never code`);
    this.language = language;
  }
  language;
};
var refuse = (language) => () => {
  throw new RefusedFrontmatterLanguage(language);
};
var SEALED_CLOSE = "\0---";
var GRAY_MATTER_OPTIONS = {
  language: "yaml",
  delimiters: ["---", SEALED_CLOSE],
  engines: {
    yaml: { parse: (block) => parseMiniYaml(block.startsWith("\n") ? block.slice(1) : block) },
    js: refuse("js"),
    javascript: refuse("javascript"),
    coffee: refuse("coffee")
  }
};
function stringList(value) {
  if (Array.isArray(value))
    return value.filter((v) => typeof v === "string").map((v) => v.trim()).filter(Boolean);
  if (typeof value === "string")
    return value.split(",").map((v) => v.trim()).filter(Boolean);
  return [];
}
function readFrontmatter(text, options2 = {}) {
  const block = upstreamFrontmatterBlock(text);
  if (block === void 0) {
    const language = openerLanguage(text);
    if (language && language.toLowerCase() !== "yaml") return { kind: "none", refusedLanguage: language };
    return { kind: "none" };
  }
  let parsed;
  try {
    if (rescansBlankLines(block)) parsed = onlyCommentsAndBlanks(block) ? noKeys() : parseMiniYaml(block);
    else {
      const file = (0, import_gray_matter.default)(`---
${block}
${SEALED_CLOSE}
`, GRAY_MATTER_OPTIONS);
      parsed = "keyLines" in file.data ? file.data : noKeys();
    }
  } catch (error) {
    if (error instanceof MiniYamlError) return { kind: "malformed", message: error.message, line: error.line + 1 };
    throw error;
  }
  const keyLines = new Map([...parsed.keyLines].map(([key, line]) => [key, line + 1]));
  const compared = options2.compareWithYaml && !readsTheSameInYaml12(block) ? compareWithYaml12(block, parsed.data, keyLines) : [];
  if (!Array.isArray(compared)) return compared;
  return { kind: "ok", data: parsed.data, keyLines, yamlDifferences: compared };
}
var BLANK_LINE_RESCAN_LIMIT = 1e7;
var noKeys = () => ({ data: /* @__PURE__ */ Object.create(null), keyLines: /* @__PURE__ */ new Map() });
var onlyCommentsAndBlanks = (block) => block.split("\n").every((line) => line.trim() === "" || /^\s*#[^\n]/.test(line));
function rescansBlankLines(block) {
  if (block.length * block.length <= BLANK_LINE_RESCAN_LIMIT) return false;
  let cost = 0;
  let runLines = 0;
  let runChars = 0;
  for (const line of block.split("\n")) {
    if (line.trim() === "") {
      runLines++;
      runChars += line.length + 1;
      continue;
    }
    cost += runLines * runChars;
    if (cost > BLANK_LINE_RESCAN_LIMIT) return true;
    runLines = 0;
    runChars = 0;
  }
  return cost + runLines * runChars > BLANK_LINE_RESCAN_LIMIT;
}
var MAX_FRONTMATTER_EXPANSION = 4e6;
var TooLarge = class extends Error {
};
var ContainsItself = class extends Error {
};
function checkExpansion(value, budget) {
  const measured = /* @__PURE__ */ new Map();
  const open = /* @__PURE__ */ new Set();
  const size = (v) => {
    if (typeof v === "string") return Math.max(1, v.length);
    if (v === null || typeof v !== "object") return 1;
    const known = measured.get(v);
    if (known !== void 0) return known;
    if (open.has(v)) throw new ContainsItself();
    open.add(v);
    let total = 1;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      total += size(child);
      if (total > budget) throw new TooLarge();
    }
    open.delete(v);
    measured.set(v, total);
    return total;
  };
  size(value);
}
var PLAIN = String.raw`[A-Za-z][\w./@+-]*(?: [\w./@+()-]+)*`;
var SCALAR = String.raw`(?:"[^"\\]*"|[1-9][0-9]*(?:\.[0-9]+)?|0(?:\.[0-9]+)?|${PLAIN})`;
var LIST_SCALAR = SCALAR.replace('[^"\\\\]', '[^",\\\\]');
var VALUE = String.raw`(?:${SCALAR}|\[(?:${LIST_SCALAR}(?:, ${LIST_SCALAR})*)?\])`;
var KEY_VALUE = new RegExp(String.raw`^[A-Za-z_][\w-]*: ${VALUE}$`);
var KEY_ONLY = /^[A-Za-z_][\w-]*:$/;
var CHILD_KEY_VALUE = new RegExp(String.raw`^  [A-Za-z_][\w-]*: ${VALUE}$`);
var CHILD_ITEM = new RegExp(String.raw`^  - ${SCALAR}$`);
var YAML_SPECIAL = /(?:^|[\s:[,-])(?:true|false|null|yes|no|on|off|y|n|~|\.inf|\.nan)(?:$|[\s,\]])/i;
function readsTheSameInYaml12(block) {
  const lines = block.split("\n").filter((line) => line !== "");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (YAML_SPECIAL.test(line.replace(/"[^"]*"/g, '""'))) return false;
    if (KEY_VALUE.test(line)) continue;
    if (!KEY_ONLY.test(line)) return false;
    const child = lines[i + 1] !== void 0 && CHILD_ITEM.test(lines[i + 1]) ? CHILD_ITEM : CHILD_KEY_VALUE;
    let j = i + 1;
    while (j < lines.length && lines[j].startsWith(" ")) {
      if (!child.test(lines[j]) || YAML_SPECIAL.test(lines[j].replace(/"[^"]*"/g, '""'))) return false;
      j++;
    }
    if (j === i + 1) return false;
    i = j - 1;
  }
  return true;
}
function compareWithYaml12(block, dialect, keyLines) {
  let standard;
  try {
    standard = yaml2.load(block, { schema: yaml2.CORE_SCHEMA, json: true });
  } catch (error) {
    const mark = error.mark;
    const line = (mark?.line ?? 0) + 2;
    const reason = error.reason ?? error.message;
    return [{ field: null, line, message: `frontmatter is not valid YAML 1.2 (${reason}); tools that read standard YAML will reject this page` }];
  }
  try {
    checkExpansion(standard, MAX_FRONTMATTER_EXPANSION);
  } catch (error) {
    const problem = error instanceof ContainsItself ? "frontmatter YAML aliases make a value that contains itself" : `frontmatter YAML aliases expand to more than ${MAX_FRONTMATTER_EXPANSION.toLocaleString("en-US")} characters of values (a "billion laughs" alias bomb)`;
    return {
      kind: "refused",
      line: 1,
      message: `${problem}: standard YAML readers would exhaust their memory on it, so the page is not checked further; write the values out instead of using anchors (&) and aliases (*)`
    };
  }
  if (standard === null || standard === void 0) standard = {};
  if (typeof standard !== "object" || Array.isArray(standard)) {
    return [{ field: null, line: 2, message: "frontmatter is not a YAML mapping for standard YAML readers" }];
  }
  const differences = [];
  const standardMap = standard;
  for (const [key, value] of Object.entries(dialect)) {
    collectDifferences(key, value, standardMap[key], keyLines, differences);
  }
  return differences;
}
function collectDifferences(field, dialectValue, standardValue, keyLines, out) {
  if (isPyDict(dialectValue) && standardValue && typeof standardValue === "object" && !Array.isArray(standardValue)) {
    for (const [child, value] of Object.entries(dialectValue)) {
      collectDifferences(`${field}.${child}`, value, standardValue[child], keyLines, out);
    }
    return;
  }
  if (sameValue(dialectValue, standardValue)) return;
  out.push({
    field,
    line: keyLines.get(field) ?? keyLines.get(field.split(".")[0]) ?? 2,
    message: `frontmatter field '${field}': standard YAML reads ${cutValue(describeStandard(standardValue))}, this wiki's dialect reads ${cutValue(pyRepr(dialectValue))}`
  });
}
function sameValue(dialect, standard) {
  if (typeof dialect === "bigint") return typeof standard === "number" && BigInt(Math.trunc(standard)) === dialect && Number.isInteger(standard);
  if (typeof dialect === "number") return typeof standard === "number" && (standard === dialect || Number.isNaN(standard) && Number.isNaN(dialect));
  if (Array.isArray(dialect)) {
    return Array.isArray(standard) && standard.length === dialect.length && dialect.every((item, i) => sameValue(item, standard[i]));
  }
  if (isPyDict(dialect)) {
    if (!standard || typeof standard !== "object" || Array.isArray(standard)) return false;
    const s = standard;
    const keys = Object.keys(dialect);
    return keys.length === Object.keys(s).length && keys.every((k) => sameValue(dialect[k], s[k]));
  }
  if (dialect === "" && standard === null) return true;
  return dialect === standard;
}
function describeStandard(value) {
  if (value === void 0) return "nothing";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

// src/wiki/layout.ts
var DIRECTORY_INDEX = "_index.md";
var parentDir = (p) => {
  const at = p.lastIndexOf("/");
  return at < 0 ? "" : p.slice(0, at);
};

// src/wiki/wiki-path.ts
function resolveWikiPath(fromDir, target) {
  const parts = fromDir === "" || target.startsWith("/") ? [] : fromDir.split("/");
  for (const part of target.replace(/^\/+/, "").split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) return void 0;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join("/");
}

// src/wiki/index-entries.ts
var IN_A_FOLDER = `/${DIRECTORY_INDEX}`;
function decodeURIComponentSafe(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

// src/wiki/open-capture.ts
function isOpenCapture(data) {
  return data?.captured_by !== void 0 && data.captured_by !== null;
}

// src/wiki/page-summary.ts
var fileStem = (relPath) => {
  const name = relPath.slice(relPath.lastIndexOf("/") + 1);
  return name.endsWith(".md") ? name.slice(0, -3) : name;
};

// node_modules/stemmer/index.js
var step2list = {
  ational: "ate",
  tional: "tion",
  enci: "ence",
  anci: "ance",
  izer: "ize",
  bli: "ble",
  alli: "al",
  entli: "ent",
  eli: "e",
  ousli: "ous",
  ization: "ize",
  ation: "ate",
  ator: "ate",
  alism: "al",
  iveness: "ive",
  fulness: "ful",
  ousness: "ous",
  aliti: "al",
  iviti: "ive",
  biliti: "ble",
  logi: "log"
};
var step3list = {
  icate: "ic",
  ative: "",
  alize: "al",
  iciti: "ic",
  ical: "ic",
  ful: "",
  ness: ""
};
var consonant = "[^aeiou]";
var vowel = "[aeiouy]";
var consonants = "(" + consonant + "[^aeiouy]*)";
var vowels = "(" + vowel + "[aeiou]*)";
var gt0 = new RegExp("^" + consonants + "?" + vowels + consonants);
var eq1 = new RegExp(
  "^" + consonants + "?" + vowels + consonants + vowels + "?$"
);
var gt1 = new RegExp("^" + consonants + "?(" + vowels + consonants + "){2,}");
var vowelInStem = new RegExp("^" + consonants + "?" + vowel);
var consonantLike = new RegExp("^" + consonants + vowel + "[^aeiouwxy]$");
var sfxLl = /ll$/;
var sfxE = /^(.+?)e$/;
var sfxY = /^(.+?)y$/;
var sfxIon = /^(.+?(s|t))(ion)$/;
var sfxEdOrIng = /^(.+?)(ed|ing)$/;
var sfxAtOrBlOrIz = /(at|bl|iz)$/;
var sfxEED = /^(.+?)eed$/;
var sfxS = /^.+?[^s]s$/;
var sfxSsesOrIes = /^.+?(ss|i)es$/;
var sfxMultiConsonantLike = /([^aeiouylsz])\1$/;
var step2 = /^(.+?)(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)$/;
var step3 = /^(.+?)(icate|ative|alize|iciti|ical|ful|ness)$/;
var step4 = /^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti|ous|ive|ize)$/;
function stemmer(value) {
  let result = String(value).toLowerCase();
  if (result.length < 3) {
    return result;
  }
  let firstCharacterWasLowerCaseY = false;
  if (result.codePointAt(0) === 121) {
    firstCharacterWasLowerCaseY = true;
    result = "Y" + result.slice(1);
  }
  if (sfxSsesOrIes.test(result)) {
    result = result.slice(0, -2);
  } else if (sfxS.test(result)) {
    result = result.slice(0, -1);
  }
  let match;
  if (match = sfxEED.exec(result)) {
    if (gt0.test(match[1])) {
      result = result.slice(0, -1);
    }
  } else if ((match = sfxEdOrIng.exec(result)) && vowelInStem.test(match[1])) {
    result = match[1];
    if (sfxAtOrBlOrIz.test(result)) {
      result += "e";
    } else if (sfxMultiConsonantLike.test(result)) {
      result = result.slice(0, -1);
    } else if (consonantLike.test(result)) {
      result += "e";
    }
  }
  if ((match = sfxY.exec(result)) && vowelInStem.test(match[1])) {
    result = match[1] + "i";
  }
  if ((match = step2.exec(result)) && gt0.test(match[1])) {
    result = match[1] + step2list[match[2]];
  }
  if ((match = step3.exec(result)) && gt0.test(match[1])) {
    result = match[1] + step3list[match[2]];
  }
  if (match = step4.exec(result)) {
    if (gt1.test(match[1])) {
      result = match[1];
    }
  } else if ((match = sfxIon.exec(result)) && gt1.test(match[1])) {
    result = match[1];
  }
  if ((match = sfxE.exec(result)) && (gt1.test(match[1]) || eq1.test(match[1]) && !consonantLike.test(match[1]))) {
    result = match[1];
  }
  if (sfxLl.test(result) && gt1.test(result)) {
    result = result.slice(0, -1);
  }
  if (firstCharacterWasLowerCaseY) {
    result = "y" + result.slice(1);
  }
  return result;
}

// src/ladder/tuning.ts
var registry = /* @__PURE__ */ new Map();
var modules = /* @__PURE__ */ new Map();
function defineKnobs(module2, knobs, changed) {
  const existing = modules.get(module2);
  if (existing) return existing;
  const live = {};
  modules.set(module2, live);
  for (const [name, knob] of Object.entries(knobs)) {
    live[name] = knob.value;
    const info = { id: `${module2}.${name}`, means: knob.means, value: knob.value, off: knob.off };
    registry.set(info.id, { info, live, name, ...changed ? { changed } : {} });
  }
  return live;
}

// src/ladder/text-match.ts
var WORD = /[\p{L}\p{N}]+/gu;
var ASCII_WORD = /^[a-z]+$/;
var ASCII_TEXT = /^[\x00-\x7f]*$/;
var ASCII_WORDS = /[a-z0-9]+/g;
var normalize = (text) => (ASCII_TEXT.test(text) ? text : text.normalize("NFKC")).toLowerCase();
var STEMS = /* @__PURE__ */ new Map();
var STEM_CACHE_LIMIT = 2e5;
var BRITISH_ENDINGS = [
  [/isation(s?)$/, "ization$1"],
  [/^(\w{3,})our(s|ed|ing|ful|less|able|ite|ites)?$/, "$1or$2"],
  [/^(\w{2,})tre(s?)$/, "$1ter$2"],
  [/yse(s|d)?$/, "yze$1"],
  [/ysing$/, "yzing"]
];
var americanSpelling = (word) => FOLDING.BRITISH_SPELLING ? BRITISH_ENDINGS.reduce((w, [ending, american]) => w.replace(ending, american), word) : word;
var FOLDED = /* @__PURE__ */ new Map();
var FOLDING = defineKnobs(
  "ladder/text-match",
  {
    STEMMING: { value: true, off: false, means: "English words folded by the Porter stemmer" },
    BRITISH_SPELLING: { value: true, off: false, means: "British spellings folded to American before stemming" }
  },
  () => {
    STEMS.clear();
    FOLDED.clear();
  }
);
function foldWord(word) {
  if (word.length <= 2 || !ASCII_WORD.test(word)) return word;
  let stem = STEMS.get(word);
  if (stem === void 0) {
    stem = FOLDING.STEMMING ? stemmer(americanSpelling(word)) : americanSpelling(word);
    if (STEMS.size < STEM_CACHE_LIMIT) STEMS.set(word, stem);
  }
  return stem;
}
var lowerWords = (text) => normalize(text).match(ASCII_TEXT.test(text) ? ASCII_WORDS : WORD) ?? [];
var FOLDED_TEXT_LIMIT = 120;
function foldedWords(text) {
  if (text.length > FOLDED_TEXT_LIMIT) return lowerWords(text).map(foldWord);
  let words = FOLDED.get(text);
  if (words === void 0) {
    words = lowerWords(text).map(foldWord);
    if (FOLDED.size < STEM_CACHE_LIMIT) FOLDED.set(text, words);
  }
  return words;
}

// src/ladder/acronyms.ts
var DEFINITION = /\(([\p{Lu}][\p{Lu}\p{N}&]{1,9}s?)\)/gu;
var ACRONYMS = defineKnobs("ladder/acronyms", {
  LOOK_BACK: { value: 120, off: 1e5, means: "characters before the parenthesis where the long form may start" },
  MAX_EXPANSIONS: { value: 3, off: Number.POSITIVE_INFINITY, means: "an acronym the wiki spells out in more ways than this is not trusted" }
});
function longFormOf(acronym, before) {
  const letters = acronym.replace(/s$/, "").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
  const words = before.trim().split(/[ \t]+/);
  const maxWords = Math.min(letters.length + 5, letters.length * 2);
  for (let count = 1; count <= Math.min(words.length, maxWords); count++) {
    const candidate = words.slice(words.length - count).join(" ");
    if (spells(letters, candidate.toLowerCase())) return candidate;
  }
  return void 0;
}
function spells(letters, longForm) {
  let l = longForm.length - 1;
  for (let a = letters.length - 1; a >= 0; a--) {
    const c = letters[a];
    while (l >= 0 && (longForm[l] !== c || a === 0 && l > 0 && /[\p{L}\p{N}]/u.test(longForm[l - 1]))) l--;
    if (l < 0) return false;
    l--;
  }
  return /^[\p{L}\p{N}]/u.test(longForm) && longForm.startsWith(letters[0]);
}
var AcronymCollector = class {
  found = /* @__PURE__ */ new Map();
  add(text) {
    for (const m of text.matchAll(DEFINITION)) {
      const acronym = m[1];
      const before = text.slice(Math.max(0, m.index - ACRONYMS.LOOK_BACK), m.index);
      const clause = before.slice(Math.max(before.lastIndexOf("\n"), before.search(/[.;:!?(\][|][^.;:!?(\][|]*$/)) + 1);
      const longForm = longFormOf(acronym, clause);
      if (!longForm) continue;
      const key = foldedWords(acronym.replace(/s$/, "")).join(" ");
      const long = foldedWords(longForm).join(" ");
      if (key === "" || long === "" || long === key) continue;
      this.note(key, long, longForm.toLowerCase());
    }
  }
  /** Keeps the first form written for each folded long form, keys and forms in first-seen order. */
  note(key, long, written) {
    const forms = this.found.get(key) ?? /* @__PURE__ */ new Map();
    if (!forms.has(long)) forms.set(long, written);
    this.found.set(key, forms);
  }
  /** Everything found so far, every expansion kept (`result` drops the untrusted), to merge elsewhere. */
  findings() {
    return this.found;
  }
  /**
   * Adds another collector's findings as if its pages had been read after this one's: merging the
   * chunks of a wiki in order gives what reading its pages in order would.
   */
  merge(findings) {
    for (const [key, forms] of findings) for (const [long, written] of forms) this.note(key, long, written);
  }
  /** Folded acronym → the long forms the wiki gives it, as first written (one per folded form). */
  result() {
    const out = /* @__PURE__ */ new Map();
    for (const [key, forms] of this.found) if (forms.size <= ACRONYMS.MAX_EXPANSIONS) out.set(key, [...forms.values()]);
    return out;
  }
};

// src/ladder/sorted-search.ts
function lowerBound(from, to, isBefore) {
  let [low, high] = [from, to];
  while (low < high) {
    const mid = low + high >>> 1;
    if (isBefore(mid)) low = mid + 1;
    else high = mid;
  }
  return low;
}

// src/ladder/word-ids.ts
var WORD_RUN = /[\p{L}\p{N}]+/gu;
var WORD_CHAR = /^[\p{L}\p{N}]$/u;
var ASCII_WORD_CHAR = Uint8Array.from({ length: 128 }, (_, c) => Number(c >= 48 && c <= 57 || c >= 65 && c <= 90 || c >= 97 && c <= 122));
var isWordAt = (text, i) => {
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII_WORD_CHAR[c] === 1;
  return WORD_CHAR.test(String.fromCodePoint(text.codePointAt(i)));
};
function linkTargetEnd(text, open) {
  for (let k = open + 1; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 41) return k + 1;
    if (c <= 32) return -k;
  }
  return -text.length;
}
var withRoomFor = (array, index) => {
  if (index < array.length) return array;
  const grown = new Int32Array(array.length * 2);
  grown.set(array);
  return grown;
};
var lower = (c) => c >= 65 && c <= 90 ? c + 32 : c;
var step = (hash, c) => Math.imul(hash, 31) + c | 0;
var WordIds = class {
  words = [];
  /** Each word's hash, by id. */
  hashes = new Int32Array(1024);
  /**
   * Open-addressed table of id + 1 (0: empty slot), probed linearly from a word's hash: a typed
   * array lookup per word occurrence costs a fraction of a Map's.
   */
  table = new Int32Array(4096);
  /** The lowercased word behind an id. */
  word(id) {
    return this.words[id];
  }
  get size() {
    return this.words.length;
  }
  /**
   * Visits the id of each lowercased word of a text, in order: the words of `lowerWords` (runs of
   * letters and digits, NFKC-normalised), each as its id. A run with non-ASCII letters is
   * normalised on its own and split again, which gives the words of normalising the whole text. With `skipLinkTargets`, the target of a
   * markdown link (`](target)`) is passed over: a link's words count, its file name does not.
   */
  scan(text, visit, skipLinkTargets = false) {
    const n = text.length;
    let i = 0;
    let noTargetBefore = 0;
    while (i < n) {
      let c = text.charCodeAt(i);
      if (c < 128 && !ASCII_WORD_CHAR[c]) {
        i++;
        if (skipLinkTargets && c === 93 && text.charCodeAt(i) === 40 && i >= noTargetBefore) {
          const end = linkTargetEnd(text, i);
          if (end > 0) i = end;
          else noTargetBefore = -end;
        }
        continue;
      }
      if (c >= 128 && !isWordAt(text, i)) {
        i += c >= 55296 && c <= 56319 ? 2 : 1;
        continue;
      }
      const start = i;
      let hash = 0;
      while (i < n && (c = text.charCodeAt(i)) < 128 && ASCII_WORD_CHAR[c]) {
        hash = step(hash, lower(c));
        i++;
      }
      if (i < n && c >= 128 && isWordAt(text, i)) {
        while (i < n && isWordAt(text, i)) i += text.charCodeAt(i) >= 55296 && text.charCodeAt(i) <= 56319 ? 2 : 1;
        for (const part of normalize(text.slice(start, i)).match(WORD_RUN) ?? []) visit(this.idOf(part));
      } else visit(this.idOfRun(text, start, i, hash));
    }
  }
  /** The id of a lowercased word, assigned on first sight. */
  idOf(word) {
    let hash = 0;
    for (let i = 0; i < word.length; i++) hash = step(hash, word.charCodeAt(i));
    const mask = this.table.length - 1;
    for (let slot = hash & mask; ; slot = slot + 1 & mask) {
      const id = this.table[slot] - 1;
      if (id < 0) return this.add(slot, hash, word);
      if (this.hashes[id] === hash && this.words[id] === word) return id;
    }
  }
  /** The id of the ASCII run text[start, end) lowercased, hashed as it was scanned (no string made for a known word). */
  idOfRun(text, start, end, hash) {
    const mask = this.table.length - 1;
    for (let slot = hash & mask; ; slot = slot + 1 & mask) {
      const id = this.table[slot] - 1;
      if (id < 0) return this.add(slot, hash, text.slice(start, end).toLowerCase());
      if (this.hashes[id] === hash && this.sameRun(id, text, start, end)) return id;
    }
  }
  sameRun(id, text, start, end) {
    const word = this.words[id];
    if (word.length !== end - start) return false;
    for (let k = 0; k < word.length; k++) if (word.charCodeAt(k) !== lower(text.charCodeAt(start + k))) return false;
    return true;
  }
  /** Stores a new word in the empty slot its probe reached, growing the table past half full. */
  add(slot, hash, word) {
    const id = this.words.length;
    this.words.push(word);
    this.hashes = withRoomFor(this.hashes, id);
    this.hashes[id] = hash;
    this.table[slot] = id + 1;
    if (this.words.length * 2 > this.table.length) this.rehash();
    return id;
  }
  rehash() {
    const table = new Int32Array(this.table.length * 2);
    const mask = table.length - 1;
    for (let id = 0; id < this.words.length; id++) {
      let slot = this.hashes[id] & mask;
      while (table[slot] !== 0) slot = slot + 1 & mask;
      table[slot] = id + 1;
    }
    this.table = table;
  }
};

// src/ladder/relevance.ts
var FIELDS = ["title", "aliases", "tags", "summary", "headings", "links", "body"];
var SHORT_FIELDS = FIELDS.filter((field) => field !== "body");
var evenly = (value) => Object.fromEntries(FIELDS.map((field) => [field, value]));
var LENGTH_NORMALISATION = 0.75;
var BM25F = defineKnobs("ladder/relevance", {
  FIELD_WEIGHTS: {
    value: { title: 6, aliases: 5, tags: 3, summary: 3, headings: 2, links: 2, body: 1 },
    off: evenly(1),
    means: "field weights (title 6, aliases 5, tags and summary 3, headings and links 2, body 1)"
  },
  K1: { value: 2, off: 1.2, means: "BM25's k1 over the summed fields" }
});
var RelevanceCounter = class {
  /**
   * `stopwords` (the ladder's builtinStopwords()) are counted in lengths, never indexed. Passed in
   * so the catalog's worker bundle leaves out the stopword lists' module (300 KB of the Action's
   * size budget) and takes the words in its start-up data.
   */
  constructor(stopwords2) {
    this.stopwords = stopwords2;
  }
  stopwords;
  ids = new WordIds();
  foldedIds = /* @__PURE__ */ new Map();
  foldedWordsById = [];
  /** Word id → folded id, or -1 for a stopword (never in a query: counted in lengths, not indexed). */
  folding = [];
  /** Occurrences per folded id for the text being counted, and which ids it touched. */
  tally = new Int32Array(1024);
  touched = [];
  /** Words seen by the current tally (stopwords included: they count in lengths). */
  seen = 0;
  /** Tallies one word, by id (a field, not a closure per text: it is called for every word of every page). */
  tallyWord = (id) => {
    this.seen++;
    const folded = this.foldedIdOf(id);
    if (folded < 0) return;
    if (this.tally[folded]++ === 0) this.touched.push(folded);
  };
  countBody(text) {
    const length = this.tallyWords([text], true);
    const ids = Int32Array.from(this.touched);
    const counts = ids.map((id) => this.tally[id]);
    this.clearTally();
    return { ids, counts, length };
  }
  /** Counts a page's short fields (title, aliases, tags, summary, headings, link texts), field by field. */
  countFields(fields) {
    const ids = [];
    const counts = [];
    const ends = new Int32Array(SHORT_FIELDS.length);
    const lengths = new Int32Array(SHORT_FIELDS.length);
    SHORT_FIELDS.forEach((field, f) => {
      lengths[f] = this.tallyWords(fields[field], false);
      for (const id of this.touched) {
        ids.push(id);
        counts.push(this.tally[id]);
      }
      this.clearTally();
      ends[f] = ids.length;
    });
    return { ids: Int32Array.from(ids), counts: Int32Array.from(counts), ends, lengths };
  }
  /** Tallies the texts' folded words into `tally` / `touched`; returns how many words they have. */
  tallyWords(texts, skipLinkTargets) {
    this.seen = 0;
    for (const text of texts) this.ids.scan(text, this.tallyWord, skipLinkTargets);
    return this.seen;
  }
  clearTally() {
    for (const id of this.touched) this.tally[id] = 0;
    this.touched.length = 0;
  }
  foldedIdOf(id) {
    let folded = this.folding[id];
    if (folded === void 0) {
      const word = this.ids.word(id);
      folded = this.stopwords.has(word) ? -1 : this.foldedIdFor(foldWord(word));
      this.folding[id] = folded;
    }
    return folded;
  }
  /** The id of a folded word, assigned on first sight. */
  foldedIdFor(key) {
    let folded = this.foldedIds.get(key);
    if (folded === void 0) {
      folded = this.foldedWordsById.length;
      this.foldedIds.set(key, folded);
      this.foldedWordsById.push(key);
      this.tally = withRoomFor(this.tally, folded);
    }
    return folded;
  }
  /** The folded words counted so far, by folded id (what counted bodies' `ids` refer to). */
  vocabulary() {
    return [...this.foldedWordsById];
  }
  /**
   * Takes in another counter's vocabulary (bodies counted elsewhere, e.g. in a worker thread):
   * its folded id → this counter's. Words new here get ids in the other's order, so adopting the
   * chunks of a wiki in order assigns the ids that counting its pages here in order would.
   */
  adopt(vocabulary) {
    return Int32Array.from(vocabulary, (word) => this.foldedIdFor(word));
  }
  /**
   * Ids counted by another counter over `vocabulary` (a kept snapshot's) as this counter's: each
   * word gets its id here on first sight, so only the words still in use are carried over.
   */
  remapper(vocabulary) {
    const here = new Int32Array(vocabulary.length).fill(-1);
    return (ids) => {
      const out = new Int32Array(ids.length);
      for (let k = 0; k < ids.length; k++) {
        const id = ids[k];
        if (here[id] < 0) here[id] = this.foldedIdFor(vocabulary[id]);
        out[k] = here[id];
      }
      return out;
    };
  }
  /** The index over the pages, in entry order: their short fields and bodies, counted by this counter. */
  build(pages) {
    const n = pages.length;
    const average = (total) => n === 0 ? 1 : Math.max(1, total / n);
    const shareOf = (weight, length, averageLength) => weight / (1 - LENGTH_NORMALISATION + LENGTH_NORMALISATION * length / averageLength);
    const shortAverages = SHORT_FIELDS.map((_, f) => average(pages.reduce((sum, page) => sum + page.fields.lengths[f], 0)));
    const bodyAverage = average(pages.reduce((sum, page) => sum + page.body.length, 0));
    const vocabularySize = this.foldedWordsById.length;
    const slot = new Int32Array(vocabularySize).fill(-1);
    const room = pages.reduce((sum, page) => sum + page.fields.ids.length + page.body.ids.length, 0);
    const words = new Int32Array(room);
    const entries = new Int32Array(room);
    const frequencies = new Float64Array(room);
    let size = 0;
    const add = (ids, counts, from, to, share, entry) => {
      for (let k = from; k < to; k++) {
        const word = ids[k];
        const amount = counts[k] * share;
        const at = slot[word];
        if (at >= 0) frequencies[at] = frequencies[at] + amount;
        else {
          slot[word] = size;
          words[size] = word;
          entries[size] = entry;
          frequencies[size++] = amount;
        }
      }
    };
    const weights = SHORT_FIELDS.map((field) => BM25F.FIELD_WEIGHTS[field]);
    const bodyWeight = BM25F.FIELD_WEIGHTS.body;
    for (let entry = 0; entry < n; entry++) {
      const { fields, body } = pages[entry];
      const first = size;
      for (let f = 0; f < SHORT_FIELDS.length; f++) {
        if (fields.lengths[f] === 0) continue;
        add(fields.ids, fields.counts, f === 0 ? 0 : fields.ends[f - 1], fields.ends[f], shareOf(weights[f], fields.lengths[f], shortAverages[f]), entry);
      }
      if (body.length > 0) add(body.ids, body.counts, 0, body.ids.length, shareOf(bodyWeight, body.length, bodyAverage), entry);
      for (let k = first; k < size; k++) slot[words[k]] = -1;
    }
    const offsets = new Int32Array(vocabularySize + 1);
    for (let k = 0; k < size; k++) offsets[words[k] + 1]++;
    for (let w = 0; w < vocabularySize; w++) offsets[w + 1] += offsets[w];
    const next = offsets.slice(0, vocabularySize);
    const postings = { offsets, entries: new Int32Array(size), pseudoFrequencies: new Float64Array(size) };
    for (let k = 0; k < size; k++) {
      const at = next[words[k]]++;
      postings.entries[at] = entries[k];
      postings.pseudoFrequencies[at] = frequencies[k];
    }
    return relevanceIndex(pages.length, this.foldedWordsById, this.foldedIds, postings, namingFrequencies(pages, vocabularySize));
  }
};
var NAMING_FIELDS = SHORT_FIELDS.map((field, f) => [field, f]).filter(([field]) => field !== "links");
function namingFrequencies(pages, vocabularySize) {
  const naming = new Int32Array(vocabularySize);
  const lastPage = new Int32Array(vocabularySize).fill(-1);
  pages.forEach(({ fields: { ids, ends } }, entry) => {
    for (const [, f] of NAMING_FIELDS) {
      for (let k = f === 0 ? 0 : ends[f - 1]; k < ends[f]; k++) {
        const id = ids[k];
        if (lastPage[id] === entry) continue;
        lastPage[id] = entry;
        naming[id]++;
      }
    }
  });
  return naming;
}
function relevanceIndex(n, vocabulary, wordIds, postings, naming) {
  const { offsets, entries, pseudoFrequencies } = postings;
  const range = (word) => {
    const id = wordIds.get(word);
    return id === void 0 ? [0, 0] : [offsets[id], offsets[id + 1]];
  };
  const documentFrequency = (word) => {
    const [from, to] = range(word);
    return to - from;
  };
  const idf = (word) => {
    const df = documentFrequency(word);
    return df === 0 ? 0 : Math.log(1 + (n - df + 0.5) / (df + 0.5));
  };
  const holds = (entry, word) => {
    const id = wordIds.get(word);
    if (id === void 0) return false;
    const to = offsets[id + 1];
    const at = lowerBound(offsets[id], to, (k) => entries[k] < entry);
    return at < to && entries[at] === entry;
  };
  return {
    size: n,
    documentFrequency,
    idf,
    score(query) {
      const values = new Float64Array(n);
      const order = new Int32Array(n);
      let size = 0;
      for (const [word, weight] of query) {
        const [from, to] = range(word);
        if (from === to || weight <= 0) continue;
        const w = weight * idf(word);
        for (let k = from; k < to; k++) {
          const entry = entries[k];
          const pf = pseudoFrequencies[k];
          if (values[entry] === 0) order[size++] = entry;
          values[entry] = values[entry] + w * pf / (BM25F.K1 + pf);
        }
      }
      return {
        size,
        of: (entry) => values[entry] ?? 0,
        page: (k) => order[k]
      };
    },
    anyPageHoldsAll(words) {
      if (words.length === 0) return false;
      const [rarest, ...rest] = [...words].sort((a, b) => documentFrequency(a) - documentFrequency(b));
      const [from, to] = range(rarest);
      for (let k = from; k < to; k++) if (rest.every((word) => holds(entries[k], word))) return true;
      return false;
    },
    wordsIn: (entry, words) => words.filter((word) => holds(entry, word)),
    namingFrequency(word) {
      const id = wordIds.get(word);
      return id === void 0 ? 0 : naming[id];
    },
    parts: () => ({ vocabulary, postings, naming })
  };
}

// src/ladder/page-facts.ts
function readPageFacts(path2, text, counter) {
  const fm = readFrontmatter(text);
  const data = fm.kind === "ok" ? fm.data : void 0;
  const title = data && "title" in data ? pyStr(data.title) : fileStem(path2);
  const declared = data ? [data.summary, data.description].find((v) => typeof v === "string" && v.trim() !== "") : void 0;
  const body = bodyOf(text);
  const blocks = markdownBlocks(body.split("\n"));
  const acronyms = new AcronymCollector();
  acronyms.add(body);
  const links = [];
  for (const link of markdownLinks(body)) {
    const target = link.target.split("#")[0];
    if (link.text === "" || !/.\.md$/.test(target) || /^[a-z]+:/i.test(target)) continue;
    const resolved = resolveWikiPath(target.startsWith("/") ? "" : parentDir(path2), decodeURIComponentSafe(target));
    if (resolved) links.push({ target: resolved, text: link.text });
  }
  return {
    title,
    ownSummary: declared?.trim() ?? bodySummary(text, blocks),
    tags: stringList(data?.tags).map((t) => t.replace(/^#/, "")),
    aliases: stringList(data?.aliases),
    headings: blocks.filter((block) => block.kind === "heading" && block.text !== "").map((block) => block.text),
    links,
    wikilinks: findWikilinks(body),
    acronyms: acronyms.findings(),
    body: counter.countBody(body),
    openCapture: isOpenCapture(data)
  };
}
var PAGE_FACTS = defineKnobs("ladder/page-facts", {
  SUMMARY_LIMIT: { value: 200, off: Number.POSITIVE_INFINITY, means: "characters of a page's first block taken as its summary when it has none" }
});
function bodySummary(text, blocks) {
  const description = upstreamDescription(text);
  if (!atxHeading(description)) return description;
  const first = blocks.find((block) => block.kind !== "heading");
  return first ? first.text.replace(/\s+/g, " ").trim().slice(0, PAGE_FACTS.SUMMARY_LIMIT) : description;
}
async function readChunkFacts(read, stopwords2) {
  const counter = new RelevanceCounter(stopwords2);
  const pages = [];
  await read(
    (path2, file) => pages.push(
      file.ok ? { path: path2, facts: readPageFacts(path2, file.text, counter) } : { path: path2, unreadable: file.reason, ...file.problem === void 0 && { passing: true } }
    )
  );
  return { pages, vocabulary: counter.vocabulary() };
}

// src/ladder/catalog-worker.ts
var { root, paths, stopwords } = workerData;
var chunk = await readChunkFacts((visit) => readPages({ readEach: diskReader(root) }, paths, visit), new Set(stopwords));
parentPort.postMessage(
  chunk,
  chunk.pages.flatMap((page) => "facts" in page ? [page.facts.body.ids.buffer, page.facts.body.counts.buffer] : [])
);
