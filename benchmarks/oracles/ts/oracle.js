#!/usr/bin/env node
/*
 * The TypeScript checker as an independent oracle for imports and calls.
 *
 *   node oracle.js CONFIG.json
 *
 * CONFIG.json (written by benchmarks/oracles/ts_oracle.py):
 *   {"root": "/abs/path/of/the/code/base",          the folder holding package.json / tsconfig.json
 *    "root_name": "mobx-6.13.7",                    written as "root" in the output
 *    "package": "mobx", "version": "6.13.7",
 *    "include": ["src"],                            folders or files (relative to root) to analyse
 *    "exclude": ["^src/.*\\.test\\.tsx?$"],          regular expressions on root-relative paths
 *    "hidden": ["\\.d\\.ts$"],                      optional: root-relative paths the checker never
 *                                                    sees, not even through module resolution
 *    "compiler_options": {"jsx": "react-jsx"},      tsconfig-style overrides (optional)
 *    "imports_out": "/abs/x.imports.json", "calls_out": "/abs/x.calls.json"}
 *
 * One ts.Program over every source file of `include` (allowJs + checkJs, so plain JavaScript is
 * bound and checked too), then, per file:
 *   imports: every import / export-from / import-equals / require("x") / import("x") with a
 *            literal specifier, resolved by the checker (the module symbol of the specifier),
 *            else by ts.resolveModuleName with the same options (files that are not modules);
 *   calls:   every CallExpression, NewExpression and tagged template (`` tag`...` `` calls tag;
 *            require(...) and import(...) excluded: they are imports), resolved to the
 *            declaration the checker binds the callee to, following import / export / require
 *            aliases.
 * The output format is the contract in benchmarks/oracles/README.md ("TypeScript oracle").
 *
 * The compiler host is hermetic: it sees only files inside the code base and the compiler's own
 * lib.*.d.ts, so nothing from this oracle's node_modules (or any node_modules above the code
 * base) can leak into module resolution. Bare specifiers that do not resolve inside the code
 * base are `external`, named by their package.
 *
 * Never import graphrag_code (or anything of it) from here: the oracle must stay independent.
 */
'use strict';

const fs = require('fs');
const path = require('path');
const ts = require('typescript');

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
// Never analysed, whatever `include` says: dependencies, build output and coverage reports.
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', 'build', '.next', 'coverage', '.git']);
const CALLEE_TEXT_LIMIT = 200;
// Declarations found in the compiler's default library (lib.es5.d.ts, lib.dom.d.ts ...).
const BUILTIN_PACKAGE = '@typescript/lib';
// How many value aliases (`const f = g`, `{ g }`, `exports.f = g`) are followed at most.
const MAX_VALUE_HOPS = 5;

// --------------------------------------------------------------------------------------------
// Files and program
// --------------------------------------------------------------------------------------------

function toPosix(p) {
  return p.split(path.sep).join('/');
}

function isSourceFileName(name) {
  if (/\.min\.js$/.test(name)) return false;
  return SOURCE_EXTENSIONS.some((ext) => name.endsWith(ext));
}

/** Root-relative POSIX paths of the source files below `include`, sorted. */
function collectFiles(root, include, exclude) {
  const patterns = (exclude || []).map((p) => new RegExp(p));
  const found = [];
  const visit = (abs) => {
    const stat = fs.statSync(abs);
    if (stat.isDirectory()) {
      if (SKIPPED_DIRECTORIES.has(path.basename(abs))) return;
      for (const child of fs.readdirSync(abs).sort()) visit(path.join(abs, child));
    } else if (isSourceFileName(abs)) {
      const rel = toPosix(path.relative(root, abs));
      if (!patterns.some((re) => re.test(rel))) found.push(rel);
    }
  };
  for (const entry of include) visit(path.join(root, entry));
  return [...new Set(found)].sort();
}

/**
 * Compiler options: the code base's own tsconfig.json when it ships one (for `paths`,
 * `baseUrl`, `jsx`, `lib`, strictness; without its `extends`, `types` and emit settings), then
 * the config's overrides, then what the oracle needs:
 * JavaScript checked, nothing emitted, no ambient @types, bundler-style resolution (extensionless
 * relative imports, index files, package.json `exports`), `import` and `require` both allowed.
 */
function compilerOptions(root, host, overrides) {
  let options = {};
  const tsconfig = path.join(root, 'tsconfig.json');
  if (fs.existsSync(tsconfig)) {
    const read = ts.readConfigFile(tsconfig, (f) => host.readFile(f));
    if (!read.error) {
      const parsed = ts.parseJsonConfigFileContent(read.config, host.parseConfigHost, root);
      options = parsed.options;
    }
  }
  if (overrides) {
    const converted = ts.convertCompilerOptionsFromJson(overrides, root);
    if (converted.errors.length) {
      throw new Error(ts.flattenDiagnosticMessageText(converted.errors[0].messageText, '\n'));
    }
    Object.assign(options, converted.options);
  }
  for (const key of ['outDir', 'outFile', 'rootDir', 'rootDirs', 'declarationDir', 'typeRoots',
    'composite', 'incremental', 'tsBuildInfoFile', 'declaration', 'declarationMap', 'plugins',
    'emitDeclarationOnly', 'sourceMap', 'inlineSourceMap', 'verbatimModuleSyntax']) {
    delete options[key];
  }
  return Object.assign(options, {
    allowJs: true,
    checkJs: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    resolveJsonModule: true,
    allowImportingTsExtensions: true,
    esModuleInterop: true,
    allowSyntheticDefaultImports: true,
    maxNodeModuleJsDepth: 0,
    jsx: options.jsx === undefined ? ts.JsxEmit.Preserve : options.jsx,
    // Nothing is emitted, so the target only chooses the default library: the newest one, so
    // that built-ins resolve (an explicit `lib` of the code base is kept).
    target: ts.ScriptTarget.ESNext,
  });
}

/** A compiler host that sees only the code base and the compiler's own lib files. */
function hermeticHost(root, hidden) {
  const libDir = path.dirname(ts.getDefaultLibFilePath({}));
  const patterns = (hidden || []).map((p) => new RegExp(p));
  // A compiled package (lib/x.js beside lib/x.d.ts) is checked as the JavaScript that runs only
  // when its declarations are out of sight: module resolution prefers .d.ts to .js.
  const isHidden = (abs) => patterns.some((re) => re.test(toPosix(path.relative(root, abs))));
  const inside = (p) => {
    const abs = path.resolve(p);
    if (abs.startsWith(libDir + path.sep)) return true;
    return (abs === root || abs.startsWith(root + path.sep)) && !isHidden(abs);
  };
  // Ancestors of the root must be visible as directories (resolution walks through them) but
  // hold nothing: their node_modules are not the code base's.
  const ancestorOfRoot = (p) => {
    const abs = path.resolve(p);
    return root.startsWith(abs + path.sep) || abs === path.parse(root).root;
  };
  const host = ts.createCompilerHost({}, true);
  const base = { ...host };
  host.fileExists = (f) => inside(f) && base.fileExists(f);
  host.readFile = (f) => (inside(f) ? base.readFile(f) : undefined);
  host.directoryExists = (d) => (inside(d) && base.directoryExists(d)) || ancestorOfRoot(d);
  host.getDirectories = (d) => (inside(d) ? base.getDirectories(d) : []);
  host.realpath = (p) => p; // symlinks are not followed out of the code base
  host.getCurrentDirectory = () => root;
  host.parseConfigHost = {
    useCaseSensitiveFileNames: true,
    readDirectory: (d, ext, exc, inc, depth) => (inside(d) ? ts.sys.readDirectory(d, ext, exc, inc, depth) : []),
    fileExists: host.fileExists,
    readFile: host.readFile,
  };
  host.isInside = (f) => {
    const abs = path.resolve(f);
    return (abs === root || abs.startsWith(root + path.sep)) && !abs.split(path.sep).includes('node_modules');
  };
  host.isLibFile = (f) => path.resolve(f).startsWith(libDir + path.sep);
  return host;
}

// --------------------------------------------------------------------------------------------
// Small syntax helpers
// --------------------------------------------------------------------------------------------

/** 1-based line and column, plus the 0-based UTF-8 byte column (tree-sitter's convention). */
function position(sf, pos) {
  const lc = sf.getLineAndCharacterOfPosition(pos);
  const lineStart = sf.getPositionOfLineAndCharacter(lc.line, 0);
  const prefix = sf.text.slice(lineStart, lineStart + lc.character);
  return { line: lc.line + 1, column: lc.character + 1, column_byte: Buffer.byteLength(prefix, 'utf8') };
}

function lineOf(node) {
  const sf = node.getSourceFile();
  return sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
}

/** Strip parentheses, `!`, `as`, `satisfies` and type assertions around an expression. */
function skipOuter(expr) {
  return ts.skipOuterExpressions(expr, ts.OuterExpressionKinds.All);
}

function propertyNameText(name) {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteralLike(name) || ts.isNumericLiteral(name)) return name.text;
  if (ts.isComputedPropertyName(name)) {
    const inner = skipOuter(name.expression);
    if (ts.isStringLiteralLike(inner)) return inner.text;
    return `[${name.expression.getText()}]`;
  }
  return name.getText();
}

function isModuleExports(expr) {
  expr = skipOuter(expr);
  return ts.isPropertyAccessExpression(expr) && ts.isIdentifier(expr.expression) &&
    expr.expression.text === 'module' && expr.name.text === 'exports';
}

function isExportsObject(expr) {
  expr = skipOuter(expr);
  return (ts.isIdentifier(expr) && expr.text === 'exports') || isModuleExports(expr);
}

/** `Foo.prototype` -> `Foo`, else undefined. */
function prototypeOwner(expr) {
  expr = skipOuter(expr);
  if (ts.isPropertyAccessExpression(expr) && expr.name.text === 'prototype') return expr.expression.getText();
  return undefined;
}

/** Name of the nearest enclosing class (or JS constructor function) of a node, for `this.x`. */
function thisOwner(node) {
  for (let a = node.parent; a; a = a.parent) {
    if (ts.isClassLike(a)) return { name: classLikeName(a), kind: 'class' };
    if (ts.isFunctionDeclaration(a) || ts.isFunctionExpression(a)) {
      const bound = boundName(a);
      if (bound && bound.container) return { name: bound.container, kind: bound.containerKind };
      if (bound) return { name: bound.name, kind: 'function' };
      return undefined;
    }
  }
  return undefined;
}

function classLikeName(cls) {
  if (cls.name) return cls.name.text;
  const bound = boundName(cls);
  return bound ? bound.name : 'default';
}

/** True for `require("x")` with one string literal argument. */
function isRequireCall(node) {
  return ts.isCallExpression(node) && ts.isIdentifier(node.expression) &&
    node.expression.text === 'require' && node.arguments.length === 1 &&
    ts.isStringLiteralLike(node.arguments[0]);
}

/** What a call runs: the callee, or the tag of a tagged template (`` _`x` `` calls `_`). */
function calleeOf(node) {
  return ts.isTaggedTemplateExpression(node) ? node.tag : node.expression;
}

function isImportCall(node) {
  return ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword;
}

/** npm package name of a bare specifier: `lodash/fp` -> `lodash`, `@a/b/c` -> `@a/b`, `node:fs` -> `fs`. */
function packageName(specifier) {
  const spec = specifier.replace(/^node:/, '');
  const parts = spec.split('/');
  return spec.startsWith('@') && parts.length > 1 ? `${parts[0]}/${parts[1]}` : parts[0];
}

function isRelativeSpecifier(specifier) {
  return specifier.startsWith('.') || specifier.startsWith('/');
}

/** Package name of a file below some node_modules folder. */
function packageOfPath(fileName) {
  const parts = toPosix(fileName).split('/');
  const i = parts.lastIndexOf('node_modules');
  if (i < 0 || i + 1 >= parts.length) return undefined;
  return parts[i + 1].startsWith('@') ? `${parts[i + 1]}/${parts[i + 2]}` : parts[i + 1];
}

// --------------------------------------------------------------------------------------------
// Names of function-like declarations, containers
// --------------------------------------------------------------------------------------------

/**
 * The name a function expression, arrow function or class expression is bound to, with the
 * node that carries the name and its container: `const f = () => {}`, `{ m: function () {} }`,
 * `class { h = () => {} }`, `exports.f = function () {}`, `Foo.prototype.m = function () {}`,
 * `this.m = function () {}`, `module.exports = function () {}`, `export default () => {}`.
 * Undefined for anonymous callbacks and other unbound values.
 */
function boundName(fn) {
  let node = fn;
  while (node.parent && (ts.isParenthesizedExpression(node.parent) || ts.isAsExpression(node.parent) ||
    ts.isSatisfiesExpression(node.parent) || ts.isTypeAssertionExpression(node.parent))) {
    node = node.parent;
  }
  const parent = node.parent;
  if (!parent) return undefined;
  if (ts.isVariableDeclaration(parent) && parent.initializer === node && ts.isIdentifier(parent.name)) {
    return { name: parent.name.text, nameNode: parent.name, ...containerOf(parent) };
  }
  if ((ts.isPropertyDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.initializer === node) {
    return { name: propertyNameText(parent.name), nameNode: parent.name, ...containerOf(parent) };
  }
  if (ts.isExportAssignment(parent)) {
    return { name: 'default', nameNode: parent, container: null, containerKind: null };
  }
  if (ts.isBinaryExpression(parent) && parent.right === node &&
    parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    const target = assignmentTargetName(parent.left);
    // `module.exports = function run() {}`: the function's own name, as for a declaration.
    if (target && target.name === 'module.exports' && fn.name && ts.isIdentifier(fn.name)) {
      return { ...target, name: fn.name.text, nameNode: fn.name };
    }
    return target;
  }
  return undefined;
}

/** Name, name node and container of the left side of a JavaScript assignment declaration. */
function assignmentTargetName(left) {
  left = skipOuter(left);
  if (isModuleExports(left)) return { name: 'module.exports', nameNode: left, container: null, containerKind: null };
  if (!ts.isPropertyAccessExpression(left) && !ts.isElementAccessExpression(left)) return undefined;
  const nameNode = ts.isPropertyAccessExpression(left) ? left.name : left.argumentExpression;
  const name = ts.isPropertyAccessExpression(left) ? left.name.text : propertyNameText(nameNode);
  const object = skipOuter(left.expression);
  if (isExportsObject(object)) return { name, nameNode, container: null, containerKind: null };
  const owner = prototypeOwner(object);
  if (owner) return { name, nameNode, container: owner, containerKind: 'prototype' };
  if (object.kind === ts.SyntaxKind.ThisKeyword) {
    const cls = thisOwner(left);
    return { name, nameNode, container: cls ? cls.name : null, containerKind: cls ? cls.kind : null };
  }
  return { name, nameNode, container: object.getText(), containerKind: 'object' };
}

/** The class, interface, object literal, namespace or type a member declaration belongs to. */
function containerOf(decl) {
  for (let a = decl.parent; a; a = a.parent) {
    if (ts.isClassLike(a)) return { container: classLikeName(a), containerKind: 'class' };
    if (ts.isInterfaceDeclaration(a)) return { container: a.name.text, containerKind: 'interface' };
    if (ts.isTypeLiteralNode(a)) {
      const alias = ts.findAncestor(a, ts.isTypeAliasDeclaration);
      return { container: alias ? alias.name.text : null, containerKind: 'type' };
    }
    if (ts.isObjectLiteralExpression(a)) {
      const bound = boundName(a);
      return { container: bound ? bound.name : null, containerKind: 'object' };
    }
    if (ts.isModuleDeclaration(a)) return { container: a.name.getText(), containerKind: 'namespace' };
    if (ts.isFunctionLike(a) || ts.isSourceFile(a)) break;
  }
  return { container: null, containerKind: null };
}

const FUNCTION_VALUE_KINDS = new Set([ts.SyntaxKind.ArrowFunction, ts.SyntaxKind.FunctionExpression]);

/** Kind of a function value bound to a member or variable (see the output format). */
function valueKind(value, hasContainer) {
  if (!value) return 'other';
  value = skipOuter(value);
  if (ts.isArrowFunction(value)) return 'arrow';
  if (ts.isFunctionExpression(value)) return hasContainer ? 'method' : 'function';
  if (ts.isClassExpression(value)) return 'class';
  return 'other';
}

/**
 * A named function-like node (the caller of a call site): declarations, and function
 * expressions / arrow functions bound to a name. Undefined for anonymous callbacks.
 */
function namedFunction(node) {
  const sf = node.getSourceFile();
  const at = (n) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  switch (node.kind) {
    case ts.SyntaxKind.FunctionDeclaration:
      return { line: at(node.name || node), name: node.name ? node.name.text : 'default', kind: 'function',
        ...containerOf(node) };
    case ts.SyntaxKind.MethodDeclaration:
      return { line: at(node.name), name: propertyNameText(node.name), kind: 'method', ...containerOf(node) };
    case ts.SyntaxKind.Constructor:
      return { line: at(constructorKeyword(node)), name: 'constructor', kind: 'constructor', ...containerOf(node) };
    case ts.SyntaxKind.GetAccessor:
      return { line: at(node.name), name: propertyNameText(node.name), kind: 'getter', ...containerOf(node) };
    case ts.SyntaxKind.SetAccessor:
      return { line: at(node.name), name: propertyNameText(node.name), kind: 'setter', ...containerOf(node) };
    case ts.SyntaxKind.FunctionExpression:
    case ts.SyntaxKind.ArrowFunction: {
      const bound = boundName(node);
      if (!bound) return undefined;
      return { line: at(bound.nameNode), name: bound.name, kind: valueKind(node, bound.container !== null),
        container: bound.container, containerKind: bound.containerKind };
    }
    default:
      return undefined;
  }
}

function constructorKeyword(ctor) {
  const token = ctor.getChildren().find((c) => c.kind === ts.SyntaxKind.ConstructorKeyword ||
    (ts.isStringLiteral(c) && c.text === 'constructor'));
  return token || ctor;
}

/**
 * The innermost enclosing named function of a call. Anonymous functions (callbacks), class
 * bodies and field initialisers are transparent. A decorator is evaluated where the class is
 * defined, so the member it decorates is skipped.
 */
function callerOf(node) {
  for (let a = node.parent; a; a = a.parent) {
    if (ts.isDecorator(a)) {
      a = a.parent; // the decorated declaration: not the caller
      continue;
    }
    if (ts.isFunctionLike(a) && a.body) {
      const named = namedFunction(a);
      if (named) return { line: named.line, name: named.name, kind: named.kind, container: named.container };
    }
  }
  return null;
}

// --------------------------------------------------------------------------------------------
// Declarations -> targets
// --------------------------------------------------------------------------------------------

const CALLABLE_TARGET_KINDS = new Set(['function', 'method', 'constructor', 'class', 'arrow', 'getter', 'setter']);

/** {file, line, name, container, kind, container_kind, declaration_kind} of a declaration. */
function describe(decl, oracle) {
  const sf = decl.getSourceFile();
  const out = (nameNode, name, kind, where) => ({
    file: oracle.relative(sf.fileName),
    line: lineOf(nameNode),
    name: name === undefined ? null : name,
    container: where && where.container !== undefined ? where.container : null,
    kind,
    container_kind: where && where.containerKind !== undefined ? where.containerKind : null,
    declaration_kind: ts.SyntaxKind[decl.kind],
  });
  const named = ts.isFunctionLike(decl) && decl.body !== undefined ? namedFunction(decl) : undefined;
  if (named) {
    return { ...out(decl, named.name, named.kind, named), line: named.line };
  }
  switch (decl.kind) {
    case ts.SyntaxKind.FunctionDeclaration:
      return out(decl.name || decl, decl.name ? decl.name.text : 'default', 'function', containerOf(decl));
    case ts.SyntaxKind.MethodDeclaration:
    case ts.SyntaxKind.MethodSignature:
      return out(decl.name, propertyNameText(decl.name), 'method', containerOf(decl));
    case ts.SyntaxKind.Constructor:
      return out(constructorKeyword(decl), 'constructor', 'constructor', containerOf(decl));
    case ts.SyntaxKind.ConstructSignature:
      return out(decl, 'constructor', 'constructor', containerOf(decl));
    case ts.SyntaxKind.GetAccessor:
      return out(decl.name, propertyNameText(decl.name), 'getter', containerOf(decl));
    case ts.SyntaxKind.SetAccessor:
      return out(decl.name, propertyNameText(decl.name), 'setter', containerOf(decl));
    case ts.SyntaxKind.ClassDeclaration:
    case ts.SyntaxKind.ClassExpression: {
      const bound = decl.name ? undefined : boundName(decl);
      const where = bound ? { container: bound.container, containerKind: bound.containerKind } : containerOf(decl);
      return out(decl.name || (bound && bound.nameNode) || decl, classLikeName(decl), 'class', where);
    }
    case ts.SyntaxKind.VariableDeclaration: {
      const where = containerOf(decl);
      return out(decl.name, decl.name.getText(), valueKind(decl.initializer, false), where);
    }
    case ts.SyntaxKind.PropertyDeclaration:
    case ts.SyntaxKind.PropertyAssignment: {
      const where = containerOf(decl);
      return out(decl.name, propertyNameText(decl.name), valueKind(decl.initializer, where.container !== null), where);
    }
    case ts.SyntaxKind.BinaryExpression: {
      // JavaScript assignment declarations: exports.f = ..., Foo.prototype.m = ..., this.m = ...
      const target = assignmentTargetName(decl.left);
      if (target) {
        let name = target.name;
        let nameNode = target.nameNode;
        const value = skipOuter(decl.right);
        if (target.name === 'module.exports' && (ts.isFunctionExpression(value) || ts.isClassExpression(value)) && value.name) {
          name = value.name.text; // as boundName does
          nameNode = value.name;
        }
        return out(nameNode, name, valueKind(decl.right, target.container !== null), target);
      }
      return out(decl, decl.left.getText(), 'other', undefined);
    }
    case ts.SyntaxKind.PropertyAccessExpression:
    case ts.SyntaxKind.ElementAccessExpression:
      if (decl.parent && ts.isBinaryExpression(decl.parent) && decl.parent.left === decl) {
        return describe(decl.parent, oracle);
      }
      return out(decl, decl.getText(), 'other', undefined);
    case ts.SyntaxKind.SourceFile:
      return { ...out(decl, path.basename(sf.fileName), 'other', undefined), line: 1 };
    default: {
      const name = decl.name ? propertyNameText(decl.name) : undefined;
      return out(decl.name || decl, name, 'other', containerOf(decl));
    }
  }
}

/** The value a non-function declaration holds, when it is another named thing: `const f = g`. */
function valueAliasNode(decl) {
  if (ts.isShorthandPropertyAssignment(decl)) return decl; // see getShorthandAssignmentValueSymbol
  let value = boundValue(decl);
  if (!value) return undefined;
  value = skipOuter(value);
  if (ts.isIdentifier(value)) return value;
  if (ts.isPropertyAccessExpression(value)) return value.name;
  return undefined;
}

/** The implementation of an overload set (the declaration with a body), else the first. */
function implementationOf(decls) {
  return decls.find((d) => ts.isFunctionLike(d) && d.body) || decls[0];
}

/**
 * Group a symbol's value declarations into entities: the overloads of one function or method
 * are one entity; a union type's property (`(A | B).m`) or a property assigned in several
 * places gives several.
 */
function entities(symbol) {
  const decls = (symbol.declarations || []).filter((d) => !ts.isInterfaceDeclaration(d) &&
    !ts.isTypeAliasDeclaration(d) && !(ts.isModuleDeclaration(d) && (symbol.declarations || []).length > 1) &&
    !ts.isTypeParameterDeclaration(d));
  const groups = new Map();
  for (const d of decls) {
    const key = ts.isFunctionLike(d) && !ts.isArrowFunction(d) && !ts.isFunctionExpression(d)
      ? `${d.getSourceFile().fileName}:${d.parent ? d.parent.pos : -1}:fn` : `${d.getSourceFile().fileName}:${d.pos}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(d);
  }
  return [...groups.values()].map(implementationOf);
}

/** The value bound by a variable, property or JavaScript assignment declaration. */
function boundValue(decl) {
  if (ts.isVariableDeclaration(decl) || ts.isPropertyDeclaration(decl) || ts.isPropertyAssignment(decl)) {
    return decl.initializer;
  }
  if (ts.isBinaryExpression(decl)) return decl.right;
  if ((ts.isPropertyAccessExpression(decl) || ts.isElementAccessExpression(decl)) &&
    decl.parent && ts.isBinaryExpression(decl.parent) && decl.parent.left === decl) return decl.parent.right;
  return undefined;
}

/** A function, method, accessor, class, or a name bound to a function or class expression. */
function isCallableDeclaration(decl) {
  if (ts.isFunctionDeclaration(decl) || ts.isMethodDeclaration(decl) || ts.isConstructorDeclaration(decl) ||
    ts.isGetAccessorDeclaration(decl) || ts.isSetAccessorDeclaration(decl) || ts.isClassLike(decl) ||
    ts.isMethodSignature(decl)) return true;
  if (FUNCTION_VALUE_KINDS.has(decl.kind)) return boundName(decl) !== undefined;
  const value = boundValue(decl);
  return value !== undefined && valueKind(value) !== 'other';
}

/** The declaration a `new` (or a call of a class) runs: the class's constructor, else the class. */
function constructorOrClass(decl) {
  let cls = decl;
  if (ts.isVariableDeclaration(decl) && decl.initializer && ts.isClassExpression(skipOuter(decl.initializer))) {
    cls = skipOuter(decl.initializer);
  }
  if (!ts.isClassLike(cls)) return decl;
  const ctors = cls.members.filter(ts.isConstructorDeclaration);
  return ctors.length ? implementationOf(ctors) : cls;
}

// --------------------------------------------------------------------------------------------
// The oracle
// --------------------------------------------------------------------------------------------

class Oracle {
  constructor(config) {
    this.config = config;
    this.root = path.resolve(config.root);
    this.host = hermeticHost(this.root, config.hidden);
    this.options = compilerOptions(this.root, this.host, config.compiler_options);
    this.files = collectFiles(this.root, config.include, config.exclude);
    this.program = ts.createProgram({
      rootNames: this.files.map((f) => path.join(this.root, f)),
      options: this.options,
      host: this.host,
    });
    this.checker = this.program.getTypeChecker();
    this.resolutionCache = ts.createModuleResolutionCache(this.root, (s) => s, this.options);
  }

  relative(fileName) {
    return toPosix(path.relative(this.root, fileName));
  }

  sourceFiles() {
    return this.files.map((f) => this.program.getSourceFile(path.join(this.root, f))).filter(Boolean);
  }

  // ---------------------------------------------------------------------------- imports

  /** Every module specifier of a file, with its kind (see the output format). */
  specifiers(sf) {
    const found = [];
    const add = (spec, kind, typeOnly) => found.push({ node: spec, kind, typeOnly });
    const visit = (node) => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteralLike(node.moduleSpecifier)) {
        const typeOnly = Boolean(node.importClause && node.importClause.isTypeOnly);
        add(node.moduleSpecifier, typeOnly ? 'import-type' : 'import', typeOnly);
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteralLike(node.moduleSpecifier)) {
        add(node.moduleSpecifier, 'export-from', node.isTypeOnly);
      } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) &&
        ts.isStringLiteralLike(node.moduleReference.expression)) {
        add(node.moduleReference.expression, 'require', node.isTypeOnly);
      } else if (isRequireCall(node)) {
        add(node.arguments[0], 'require', false);
      } else if (isImportCall(node) && node.arguments.length >= 1 && ts.isStringLiteralLike(node.arguments[0])) {
        add(node.arguments[0], 'dynamic-import', false);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
    return found;
  }

  /** The file a specifier resolves to: the checker's module symbol, else the module resolver. */
  resolveSpecifier(sf, specNode) {
    const symbol = this.checker.getSymbolAtLocation(specNode);
    const decl = symbol && (symbol.valueDeclaration || (symbol.declarations || [])[0]);
    if (decl && ts.isSourceFile(decl)) return { fileName: decl.fileName, by: 'checker' };
    if (decl && ts.isModuleDeclaration(decl)) return { ambient: true, by: 'checker' };
    // Files that are not modules (scripts, JSON without resolveJsonModule ...) and require() in
    // .ts files have no module symbol; the resolver is the same one the program used.
    const mode = ts.getModeForUsageLocation(sf, specNode, this.options);
    const resolved = ts.resolveModuleName(specNode.text, sf.fileName, this.options, this.host,
      this.resolutionCache, undefined, mode).resolvedModule;
    return resolved ? { fileName: resolved.resolvedFileName, by: 'resolver' } : { by: null };
  }

  /** True when a tsconfig `paths` pattern maps the specifier (into the code base, not a package). */
  matchesPaths(specifier) {
    return Object.keys(this.options.paths || {}).some((pattern) => {
      const star = pattern.indexOf('*');
      if (star < 0) return pattern === specifier;
      return specifier.startsWith(pattern.slice(0, star)) && specifier.endsWith(pattern.slice(star + 1)) &&
        specifier.length >= pattern.length - 1;
    });
  }

  importsOf(sf) {
    return this.specifiers(sf).map(({ node, kind, typeOnly }) => {
      const specifier = node.text;
      const r = this.resolveSpecifier(sf, node);
      const record = {
        file: this.relative(sf.fileName),
        line: position(sf, node.getStart(sf)).line,
        specifier,
        kind,
        resolved: null,
        external: null,
        type_only: Boolean(typeOnly),
        resolved_by: r.by,
        unresolved_reason: null,
      };
      if (r.fileName && this.host.isInside(r.fileName)) {
        record.resolved = this.relative(r.fileName);
      } else if (r.fileName) {
        record.external = packageOfPath(r.fileName) || packageName(specifier);
      } else if (this.matchesPaths(specifier)) {
        record.unresolved_reason = 'not-found'; // mapped by tsconfig `paths` into the code base
        record.resolved_by = null;
      } else if (!isRelativeSpecifier(specifier)) {
        record.external = packageName(specifier);
        if (r.ambient) record.unresolved_reason = 'ambient-module';
      } else {
        const target = path.resolve(path.dirname(sf.fileName), specifier);
        record.unresolved_reason = fs.existsSync(target) && fs.statSync(target).isFile() ? 'not-a-module' : 'not-found';
        record.resolved_by = null;
      }
      return record;
    });
  }

  // ---------------------------------------------------------------------------- calls

  /** The name node of a callee: `f` in `f()`, `m` in `a.b.m()`, `"m"` in `a["m"]()`. */
  calleeNameNode(expr) {
    expr = skipOuter(expr);
    if (ts.isIdentifier(expr) || expr.kind === ts.SyntaxKind.SuperKeyword) return expr;
    if (ts.isPropertyAccessExpression(expr)) return expr.name;
    if (ts.isElementAccessExpression(expr) && ts.isStringLiteralLike(expr.argumentExpression)) return expr.argumentExpression;
    if (ts.isBinaryExpression(expr) && expr.operatorToken.kind === ts.SyntaxKind.CommaToken) return this.calleeNameNode(expr.right);
    return undefined;
  }

  /** The module specifier of an import / require alias declaration, if any. */
  /**
   * Where an alias declaration takes its value from: {specNode, exportName} for imports and
   * requires (`import { a } from "m"`, `const { a } = require("m")`, `require("m").a`), or
   * {identifier} for a local re-export (`export { a }`, `exports.a = util.a`).
   */
  aliasSource(decl) {
    if (ts.isImportSpecifier(decl) || ts.isExportSpecifier(decl)) {
      const owner = ts.isImportSpecifier(decl) ? decl.parent.parent.parent : decl.parent.parent;
      const exportName = (decl.propertyName || decl.name).text;
      if (owner.moduleSpecifier && ts.isStringLiteralLike(owner.moduleSpecifier)) {
        return { specNode: owner.moduleSpecifier, exportName };
      }
      return ts.isIdentifier(decl.propertyName || decl.name) ? { identifier: decl.propertyName || decl.name } : undefined;
    }
    if (ts.isImportClause(decl)) return { specNode: decl.parent.moduleSpecifier, exportName: 'default' };
    if (ts.isNamespaceImport(decl) || ts.isNamespaceExport(decl)) {
      const owner = ts.findAncestor(decl, (n) => ts.isImportDeclaration(n) || ts.isExportDeclaration(n));
      return owner && owner.moduleSpecifier ? { specNode: owner.moduleSpecifier } : undefined;
    }
    if (ts.isImportEqualsDeclaration(decl)) {
      const ref = decl.moduleReference;
      if (ts.isExternalModuleReference(ref)) return { specNode: ref.expression };
      let e = ref;
      while (ts.isQualifiedName(e)) e = e.left;
      return { identifier: e };
    }
    if (ts.isExportAssignment(decl)) return this.valueSource(decl.expression);
    let value;
    let bindingName;
    if (ts.isBindingElement(decl)) {
      bindingName = (decl.propertyName || decl.name).getText();
      const root = ts.findAncestor(decl, ts.isVariableDeclaration);
      value = root && root.initializer;
    } else {
      value = boundValue(decl);
    }
    const source = value && this.valueSource(value);
    if (source && source.specNode && bindingName) source.exportName = bindingName;
    return source;
  }

  /** `require("m").a.b` -> {specNode, exportName: "a"}; `util.a` -> {identifier: util}. */
  valueSource(value) {
    let e = skipOuter(value);
    const names = [];
    while (ts.isPropertyAccessExpression(e)) {
      names.unshift(e.name.text);
      e = skipOuter(e.expression);
    }
    if (isRequireCall(e)) return { specNode: e.arguments[0], exportName: names[0] };
    if (ts.isIdentifier(e)) return { identifier: e };
    return undefined;
  }

  /**
   * The module specifier an alias finally comes from, through in-package re-exports:
   * `const { inherits } = require("./utils")` with `exports.inherits = util.inherits` and
   * `const util = require("util")` in utils.js gives "util".
   */
  aliasSpecifier(symbol, depth = 0) {
    if (depth > MAX_VALUE_HOPS) return undefined;
    for (const decl of symbol.declarations || []) {
      const source = this.aliasSource(decl);
      if (!source) continue;
      if (source.identifier) {
        const next = this.checker.getSymbolAtLocation(source.identifier);
        const spec = next && next !== symbol && (next.flags & ts.SymbolFlags.Alias)
          ? this.aliasSpecifier(next, depth + 1) : undefined;
        if (spec !== undefined) return spec;
        continue;
      }
      if (!ts.isStringLiteralLike(source.specNode)) continue;
      const spec = source.specNode.text;
      if (isRelativeSpecifier(spec) && source.exportName) {
        const moduleSymbol = this.checker.getSymbolAtLocation(source.specNode);
        const exported = moduleSymbol && this.checker.getExportsOfModule(moduleSymbol)
          .find((s) => s.name === source.exportName);
        const deeper = exported && this.aliasSpecifier(exported, depth + 1);
        if (deeper !== undefined) return deeper;
      }
      return spec;
    }
    return undefined;
  }

  /**
   * Follow import / export / require aliases. Returns {symbol} or, when the alias points into a
   * module that does not resolve, {external} (a bare specifier) or {reason}.
   */
  followAlias(symbol) {
    if (!(symbol.flags & ts.SymbolFlags.Alias)) return { symbol };
    const target = this.checker.getAliasedSymbol(symbol);
    if (target && (target.declarations || []).length) return { symbol: target };
    // The chain breaks somewhere (an import of a package that is not installed): the module the
    // alias finally comes from names the package.
    const spec = this.aliasSpecifier(symbol);
    if (spec !== undefined && !isRelativeSpecifier(spec) && !this.matchesPaths(spec)) return { external: packageName(spec) };
    return { reason: 'unresolved-import' };
  }

  /** For a callee with no symbol: the package of an unresolved import it is a member of (`React.useState`). */
  externalReceiver(expr) {
    let e = skipOuter(expr);
    while (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e) || ts.isCallExpression(e)) {
      e = skipOuter(e.expression);
    }
    if (!ts.isIdentifier(e)) return undefined;
    const symbol = this.checker.getSymbolAtLocation(e);
    if (!symbol || !(symbol.flags & ts.SymbolFlags.Alias)) return undefined;
    const followed = this.followAlias(symbol);
    return followed.external;
  }

  receiverIsUnion(callee) {
    callee = skipOuter(callee);
    if (!ts.isPropertyAccessExpression(callee) && !ts.isElementAccessExpression(callee)) return false;
    return this.checker.getNonNullableType(this.checker.getTypeAtLocation(callee.expression)).isUnion();
  }

  /** Why a callee name has no symbol. */
  noSymbolReason(callee) {
    callee = skipOuter(callee);
    if (ts.isIdentifier(callee)) return callee.text === 'require' ? 'require' : 'undeclared';
    if (ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee)) {
      const type = this.checker.getTypeAtLocation(callee.expression);
      if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return 'any';
      if (this.checker.getNonNullableType(type).isUnion()) return 'union';
      if (ts.isElementAccessExpression(callee) && !ts.isStringLiteralLike(callee.argumentExpression)) return 'dynamic';
      return 'no-symbol';
    }
    return 'dynamic';
  }

  /** Where a declaration lives: {inside: true} or {external: package}. */
  placeOf(decl) {
    const fileName = decl.getSourceFile().fileName;
    if (this.host.isInside(fileName)) return { inside: true };
    if (this.host.isLibFile(fileName)) return { external: BUILTIN_PACKAGE };
    return { external: packageOfPath(fileName) || '<outside>' };
  }

  /**
   * Resolve a symbol to one declaration: aliases followed, overloads collapsed, value aliases
   * (`const f = g`, `{ g }`, `exports.f = g`) followed while the declaration is not a function.
   */
  declarationOf(symbol, via) {
    for (let hop = 0; ; hop++) {
      const followed = this.followAlias(symbol);
      if (!followed.symbol) return followed;
      symbol = followed.symbol;
      const decls = entities(symbol);
      if (decls.length === 0) return { reason: symbol.name === 'require' ? 'require' : 'no-declaration' };
      if (decls.length > 1) {
        // `(A | B).m`, or a JavaScript property assigned in several places: one callable
        // candidate is the target, several are never a guess.
        if (decls.every((d) => !this.placeOf(d).inside)) return { decl: decls[0] }; // external anyway
        const callable = decls.filter(isCallableDeclaration);
        if (callable.length !== 1) return { reason: 'multiple-declarations', candidates: decls };
        return { decl: callable[0] };
      }
      const decl = decls[0];
      if (isCallableDeclaration(decl) || hop >= MAX_VALUE_HOPS) return { decl };
      const valueNode = valueAliasNode(decl);
      const next = valueNode && (ts.isShorthandPropertyAssignment(valueNode)
        ? this.checker.getShorthandAssignmentValueSymbol(valueNode)
        : this.checker.getSymbolAtLocation(valueNode));
      if (!next || next === symbol) return { decl };
      via.push(decl);
      symbol = next;
    }
  }

  resolveCall(node) {
    const isNew = ts.isNewExpression(node);
    const callee = calleeOf(node);
    const nameNode = this.calleeNameNode(callee);
    const via = [];
    const isSuper = nameNode !== undefined && nameNode.kind === ts.SyntaxKind.SuperKeyword;
    let found = isSuper ? this.resolveSuperCall(node) : this.resolveName(callee, via);
    // A declaration that is not a function (a variable, parameter or property holding one), or a
    // call of a call's result (`f()()`): the signature the checker chose for the call may name the
    // function definition; never when the callee's type is a union (`(c ? f : g)()`).
    const noName = found.reason === 'dynamic' && ts.isCallExpression(skipOuter(callee));
    if (((found.decl && !isCallableDeclaration(found.decl)) || noName) &&
      !this.checker.getTypeAtLocation(callee).isUnion()) {
      const bySignature = this.signatureDeclaration(node);
      if (bySignature) found = { decl: bySignature, by: 'signature', previous: found };
    }
    return this.outcome(found, via, isNew || isSuper ? 'construct' : 'call');
  }

  /**
   * A JSX element's component: `<Day />`, `<Ctx.Provider>`, resolved like a callee (no signature
   * fallback; a class component is the class, not its constructor).
   */
  resolveJsx(tagName) {
    const via = [];
    return this.outcome(this.resolveName(tagName, via), via, 'jsx');
  }

  /**
   * The declaration an expression names (a callee, a JSX tag, an `extends` clause): {decl},
   * {external: package} or {reason}. Declarations passed through by value aliases go to `via`.
   */
  resolveName(expr, via) {
    const nameNode = this.calleeNameNode(expr);
    if (!nameNode) return { reason: 'dynamic' };
    const symbol = this.checker.getSymbolAtLocation(nameNode);
    const found = symbol ? this.declarationOf(symbol, via) : { reason: this.noSymbolReason(expr) };
    if (['no-declaration', 'undeclared', 'no-symbol', 'any'].includes(found.reason)) {
      // `React.useState()` (a namespace import of a package that is not installed), or
      // `this.setState()` in a class whose base class comes from such a package.
      const external = this.externalReceiver(expr) || this.externalMember(expr);
      if (external) return { external };
    }
    if (found.reason === 'multiple-declarations' && this.receiverIsUnion(expr)) found.reason = 'union';
    return found;
  }

  /** The package of an uninstalled base class that a member access on a class instance reaches. */
  externalMember(expr) {
    expr = skipOuter(expr);
    if (!ts.isPropertyAccessExpression(expr) && !ts.isElementAccessExpression(expr)) return undefined;
    const type = this.checker.getTypeAtLocation(expr.expression);
    const symbol = type && type.getSymbol();
    return symbol ? this.externalBaseOf(symbol, 0) : undefined;
  }

  externalBaseOf(classSymbol, depth) {
    for (const decl of classSymbol.declarations || []) {
      if (!ts.isClassLike(decl)) continue;
      const heritage = (decl.heritageClauses || []).find((h) => h.token === ts.SyntaxKind.ExtendsKeyword);
      const base = heritage && heritage.types[0] && heritage.types[0].expression;
      if (!base) continue;
      const external = this.externalReceiver(base);
      if (external) return external;
      const nameNode = this.calleeNameNode(base);
      const symbol = nameNode && this.checker.getSymbolAtLocation(nameNode);
      const followed = symbol && this.followAlias(symbol);
      if (followed && followed.external) return followed.external;
      if (followed && followed.symbol && depth < MAX_VALUE_HOPS) {
        const deeper = this.externalBaseOf(followed.symbol, depth + 1);
        if (deeper) return deeper;
      }
    }
    return undefined;
  }

  /** The output fields of a resolution: target | external | unresolved_reason, and how. */
  outcome(found, via, use) {
    const record = { target: null, external: null, unresolved_reason: null, resolved_by: null };
    if (found.decl) {
      let decl = found.decl;
      const isClass = ts.isClassLike(decl) || (ts.isVariableDeclaration(decl) && valueKind(decl.initializer) === 'class');
      if (use === 'construct' || (use === 'call' && isClass)) decl = constructorOrClass(decl);
      const place = this.placeOf(decl);
      if (place.inside) {
        record.target = describe(decl, this);
      } else {
        record.external = place.external;
        record.external_name = this.externalName(decl);
      }
      record.resolved_by = found.by || (via.length ? 'value' : 'symbol');
      if (via.length) record.via = via.map((d) => this.placeOf(d).inside ? describe(d, this) : null).filter(Boolean);
    } else if (found.external) {
      record.external = found.external;
      record.resolved_by = 'import';
    } else {
      record.unresolved_reason = found.reason;
      if (found.candidates) {
        record.candidates = found.candidates.filter((d) => this.placeOf(d).inside).map((d) => describe(d, this));
      }
    }
    return record;
  }

  /**
   * `super(...)`: resolved like `new Base(...)` on the class's `extends` expression, so the
   * base's constructor, else the base class (an imported base that is not installed is
   * external, a built-in such as `Map` is @typescript/lib).
   */
  resolveSuperCall(node) {
    const cls = ts.findAncestor(node, ts.isClassLike);
    const heritage = cls && (cls.heritageClauses || []).find((h) => h.token === ts.SyntaxKind.ExtendsKeyword);
    const base = heritage && heritage.types[0] && heritage.types[0].expression;
    return base ? this.resolveName(base, []) : { reason: 'no-base' };
  }

  /** The function definition behind the call's resolved signature, when it is one. */
  signatureDeclaration(node) {
    const sig = this.checker.getResolvedSignature(node);
    const decl = sig && sig.declaration;
    if (!decl || decl.kind === ts.SyntaxKind.JSDocSignature) return undefined;
    if (!isCallableDeclaration(decl) || ts.isMethodSignature(decl)) return undefined;
    if ((ts.isFunctionDeclaration(decl) || ts.isMethodDeclaration(decl)) && !decl.body) {
      const symbol = decl.symbol;
      return symbol ? implementationOf(entities(symbol)) : decl;
    }
    return decl;
  }

  externalName(decl) {
    const symbol = decl.symbol || (decl.name && this.checker.getSymbolAtLocation(decl.name));
    return symbol ? this.checker.getFullyQualifiedName(symbol).replace(/^"[^"]*"\./, '') : null;
  }

  /** JSX elements whose tag is a component (not an intrinsic element such as `<div>`). */
  jsxOf(sf) {
    const elements = [];
    const visit = (node) => {
      if (ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) {
        const tag = node.tagName;
        const intrinsic = ts.isIdentifier(tag) && (/^[a-z]/.test(tag.text) || tag.text.includes('-'));
        if (!intrinsic && !ts.isJsxNamespacedName(tag)) {
          const pos = position(sf, node.getStart(sf));
          elements.push({
            file: this.relative(sf.fileName),
            line: pos.line,
            column: pos.column,
            column_byte: pos.column_byte,
            caller: callerOf(node),
            callee_text: tag.getText(sf),
            ...this.resolveJsx(tag),
          });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
    return elements;
  }

  callsOf(sf) {
    const calls = [];
    const visit = (node) => {
      const isCall = ts.isCallExpression(node) || ts.isNewExpression(node) || ts.isTaggedTemplateExpression(node);
      if (isCall && !isRequireCall(node) && !isImportCall(node)) {
        const pos = position(sf, node.getStart(sf));
        const text = calleeOf(node).getText(sf);
        calls.push({
          file: this.relative(sf.fileName),
          line: pos.line,
          column: pos.column,
          column_byte: pos.column_byte,
          caller: callerOf(node),
          callee_text: text.length > CALLEE_TEXT_LIMIT ? text.slice(0, CALLEE_TEXT_LIMIT) : text,
          is_new: ts.isNewExpression(node),
          ...(ts.isTaggedTemplateExpression(node) ? { tagged_template: true } : {}),
          ...this.resolveCall(node),
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
    return calls;
  }

  // ---------------------------------------------------------------------------- output

  run() {
    const started = Date.now();
    const header = {
      package: this.config.package,
      version: this.config.version,
      root: this.config.root_name,
      checker: `typescript@${ts.version}`,
    };
    const files = this.sourceFiles();
    const imports = [];
    const calls = [];
    const jsx = [];
    for (const sf of files) {
      imports.push(...this.importsOf(sf));
      if (!sf.isDeclarationFile) {
        calls.push(...this.callsOf(sf));
        jsx.push(...this.jsxOf(sf));
      }
    }
    const options = {
      module: 'preserve', moduleResolution: 'bundler', allowJs: true, checkJs: true,
      jsx: ts.JsxEmit[this.options.jsx], target: ts.ScriptTarget[this.options.target],
      paths: this.options.paths || null, baseUrl: this.options.baseUrl ? this.relative(this.options.baseUrl) || '.' : null,
    };
    const extra = { files: files.map((sf) => this.relative(sf.fileName)), compiler_options: options };
    const elapsed = (Date.now() - started) / 1000;
    write(this.config.imports_out, { ...header, ...extra, imports, wall_time_s: elapsed });
    write(this.config.calls_out, { ...header, ...extra, calls, jsx_elements: jsx, wall_time_s: elapsed });
    return { files: files.length, imports: imports.length, calls: calls.length, jsx_elements: jsx.length,
      wall_time_s: elapsed };
  }
}

function write(file, data) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(data, null, 1) + '\n');
}

function main(argv) {
  if (argv.length !== 1) {
    process.stderr.write('usage: node oracle.js CONFIG.json\n');
    return 2;
  }
  const config = JSON.parse(fs.readFileSync(argv[0], 'utf8'));
  const summary = new Oracle(config).run();
  process.stdout.write(JSON.stringify(summary) + '\n');
  return 0;
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2));
}

module.exports = { Oracle, packageName };
