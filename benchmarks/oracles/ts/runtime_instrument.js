// Instruments one JavaScript file so that running it records who calls its functions (issue 50,
// the runtime judge of TS/JS CALLS): `instrument(code, relativeFile, hitModule)` returns the code
// with `__gtrace("ID");` at the start of every function body (an arrow's expression body becomes
// `(__gtrace("ID"), body)`) and, after the directive prologue, one declaration of `__gtrace`
// that hands the ID to `hitModule` (runtime_hit.js), which reads its caller's frame. Nothing adds
// a newline, so every line and the column of every token before an insertion on its line hold.
//
// An ID names the function as benchmarks/accuracy/ts_accuracy.py matches a declaration to our
// node: "file<TAB>candidates", candidates being "name@line" (line of the name) joined by "|":
// a declaration's or method's own name, `constructor` at its keyword, and for a function or
// arrow expression both its own name and the name it is bound to (`x.send = function send2`,
// `const f = () =>`, `{ f: function () {} }`, a class field). Generators are left alone: their
// body first runs at `next()`, not where they are called.
'use strict';

const path = require('path');

function loadTypescript() {
  // The oracle's own install (benchmarks/cache/ts-oracle/node, `npm ci` of package-lock.json).
  const candidates = [process.env.GTRACE_TYPESCRIPT, path.join(__dirname, 'node_modules', 'typescript'),
    path.join(__dirname, '..', '..', 'cache', 'ts-oracle', 'node', 'node_modules', 'typescript')];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      return require(candidate);
    } catch (error) {
      if (error.code !== 'MODULE_NOT_FOUND') throw error;
    }
  }
  throw new Error('runtime_instrument: the typescript package is not installed (set GTRACE_TYPESCRIPT)');
}

const ts = loadTypescript();

function lineOf(sf, node) {
  return sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
}

function propertyName(name) {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) ||
      ts.isNumericLiteral(name)) return name.text;
  return undefined;
}

/** The name (and its node) a function or arrow expression is bound to, if any. */
function boundName(fn) {
  let node = fn;
  while (node.parent && ts.isParenthesizedExpression(node.parent)) node = node.parent;
  const parent = node.parent;
  if (!parent) return undefined;
  if (ts.isVariableDeclaration(parent) && parent.initializer === node && ts.isIdentifier(parent.name)) {
    return { name: parent.name.text, node: parent.name };
  }
  if ((ts.isPropertyDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.initializer === node) {
    const name = propertyName(parent.name);
    return name === undefined ? undefined : { name, node: parent.name };
  }
  if (ts.isExportAssignment(parent)) return { name: 'default', node: parent };
  if (ts.isBinaryExpression(parent) && parent.right === node &&
      parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    let left = parent.left;
    // `a.x = a.y = function () {}`: the innermost assignment names it.
    if (ts.isPropertyAccessExpression(left)) {
      if (left.getText() === 'module.exports') return { name: 'default', node: left };
      return { name: left.name.text, node: left.name };
    }
    if (ts.isElementAccessExpression(left) && ts.isStringLiteral(left.argumentExpression)) {
      return { name: left.argumentExpression.text, node: left.argumentExpression };
    }
    if (ts.isIdentifier(left)) return { name: left.text, node: left };
  }
  if (ts.isBinaryExpression(parent) && parent.right === node) return boundName(parent);
  return undefined;
}

/** "name@line" candidates of a function-like node, as ts_accuracy names our nodes. */
function candidates(sf, fn) {
  const out = [];
  const add = (name, node) => {
    if (name !== undefined) out.push(`${name}@${lineOf(sf, node)}`);
  };
  if (ts.isConstructorDeclaration(fn)) {
    const keyword = fn.getChildren(sf).find((c) => c.kind === ts.SyntaxKind.ConstructorKeyword ||
      (ts.isStringLiteral(c) && c.text === 'constructor'));
    add('constructor', keyword || fn);
  } else if (ts.isFunctionDeclaration(fn)) {
    add(fn.name ? fn.name.text : 'default', fn.name || fn);
  } else if (ts.isMethodDeclaration(fn) || ts.isGetAccessor(fn) || ts.isSetAccessor(fn)) {
    add(propertyName(fn.name), fn.name);
  } else {
    if (fn.name) add(fn.name.text, fn.name);
    const bound = boundName(fn);
    if (bound) add(bound.name, bound.node);
  }
  return [...new Set(out)].join('|');
}

function isTraced(node) {
  return (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node) || ts.isGetAccessor(node) ||
    ts.isSetAccessor(node)) && node.body !== undefined && !node.asteriskToken;
}

/** Where the declaration of `__gtrace` goes: after a shebang line and the directive prologue. */
function preludeAt(sf) {
  let at = 0;
  for (const statement of sf.statements) {
    if (ts.isExpressionStatement(statement) && ts.isStringLiteral(statement.expression)) at = statement.end;
    else break;
  }
  if (at === 0 && sf.text.startsWith('#!')) {
    const newline = sf.text.indexOf('\n');
    at = newline < 0 ? sf.text.length : newline + 1;
  }
  return at;
}

function scriptKind(file) {
  if (/\.tsx$/.test(file)) return ts.ScriptKind.TSX;
  if (/\.[cm]?ts$/.test(file)) return ts.ScriptKind.TS;
  if (/\.jsx$/.test(file)) return ts.ScriptKind.JSX;
  return ts.ScriptKind.JS;
}

/** The insertions that trace every function of a file: [position in `code`, text]. */
function editsOf(sf, file, hit, esm) {
  const edits = [];
  const visit = (node) => {
    if (isTraced(node)) {
      const id = JSON.stringify(`${file}\t${candidates(sf, node)}`);
      const body = node.body;
      if (ts.isBlock(body)) {
        edits.push([body.getStart(sf) + 1, `__gtrace(${id});`]);
      } else {
        edits.push([body.getStart(sf), `(__gtrace(${id}), `]);
        edits.push([body.end, ')']);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const target = JSON.stringify(esm ? require('url').pathToFileURL(hit).href : hit);
  const prelude = esm
    ? `import __gtraceHit from ${target};function __gtrace(i){__gtraceHit(i)}`
    : `function __gtrace(i){(globalThis.__gtraceHit||(globalThis.__gtraceHit=require(${target})))(i)}`;
  const at = preludeAt(sf);
  edits.push([at, at > 0 && !sf.text.startsWith('#!') ? `;${prelude}` : prelude]);
  return edits;
}

/**
 * `code` of the file `file` (relative to the package root, POSIX) with every function traced.
 * `hit` is the absolute path of the module whose export receives the IDs; `esm`: an ES module.
 */
function instrument(code, file, hit, esm = false) {
  const sf = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, scriptKind(file));
  const edits = editsOf(sf, file, hit, esm);
  // Later positions first; at one position the order of the texts does not matter (only equal
  // closing parentheses meet).
  edits.sort((a, b) => b[0] - a[0]);
  let out = code;
  for (const [position, text] of edits) out = out.slice(0, position) + text + out.slice(position);
  return out;
}

/**
 * A column V8 gives in the instrumented code, back in the source: the texts inserted on that
 * line before it are taken off (as a CommonJS file; an ES module's first line may differ).
 * `shifts`: line -> [[column in the source, length inserted there], ...] by column.
 */
function sourceColumn(shifts, line, column) {
  let shift = 0;
  for (const [at, length] of shifts.get(line) || []) {
    if (column >= at + shift + length) shift += length;
    else break;
  }
  return column - shift;
}

function shiftsOf(sf, file, hit) {
  const shifts = new Map();
  for (const [position, text] of editsOf(sf, file, hit, false)) {
    const lc = sf.getLineAndCharacterOfPosition(position);
    if (!shifts.has(lc.line + 1)) shifts.set(lc.line + 1, []);
    shifts.get(lc.line + 1).push([lc.character + 1, text.length]);
  }
  for (const list of shifts.values()) list.sort((a, b) => a[0] - b[0]);
  return shifts;
}

/** The last name of a callee (`a.b.c` -> "c", `x["y"]` -> "y", `f` -> "f"), else "". */
function finalName(callee) {
  if (!callee) return '';
  if (ts.isIdentifier(callee) || ts.isPrivateIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  if (ts.isElementAccessExpression(callee) && ts.isStringLiteral(callee.argumentExpression)) {
    return callee.argumentExpression.text;
  }
  if (callee.kind === ts.SyntaxKind.SuperKeyword) return 'super';
  return '';
}

/**
 * Calls by V8 position, for one file: (line, column), 1-based as a stack frame gives them, of
 * where V8 places a call, new or tagged template -> {line: the line the call starts on (the line
 * the checker and our linker give a call site), name: the callee's last name}; where V8 places
 * the frame of a class's implicit constructor (its `class` keyword) -> {line: 0}.
 */
function callLines(code, file, hit) {
  const sf = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, scriptKind(file));
  const map = new Map();
  const implicit = (node) => {
    const keyword = node.getChildren(sf).find((c) => c.kind === ts.SyntaxKind.ClassKeyword);
    const lc = sf.getLineAndCharacterOfPosition((keyword || node).getStart(sf));
    map.set(`${lc.line + 1}:${lc.character + 1}`, { line: 0, name: '' });
  };
  const put = (position, node, name) => {
    const lc = sf.getLineAndCharacterOfPosition(position);
    const key = `${lc.line + 1}:${lc.character + 1}`;
    if (!map.has(key)) map.set(key, { line: lineOf(sf, node), name });
  };
  const visit = (node) => {
    if ((ts.isClassDeclaration(node) || ts.isClassExpression(node)) &&
        !node.members.some((m) => ts.isConstructorDeclaration(m) && m.body)) implicit(node);
    if (ts.isCallExpression(node) || ts.isNewExpression(node) || ts.isTaggedTemplateExpression(node)) {
      const callee = ts.isTaggedTemplateExpression(node) ? node.tag : node.expression;
      const name = finalName(callee);
      put(node.getStart(sf), node, name);
      if (callee && ts.isPropertyAccessExpression(callee)) put(callee.name.getStart(sf), node, name);
      if (callee && ts.isElementAccessExpression(callee)) put(callee.argumentExpression.getStart(sf), node, name);
      if (ts.isCallExpression(node) && node.arguments.pos > 0) put(node.arguments.pos - 1, node, name);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  // `hit`: the positions are V8's in the instrumented file, whose lines hold but whose columns
  // move after each insertion on a line.
  const shifts = hit ? shiftsOf(sf, file, hit) : new Map();
  return (line, column) => map.get(`${line}:${sourceColumn(shifts, line, column)}`);
}

module.exports = { instrument, callLines };
