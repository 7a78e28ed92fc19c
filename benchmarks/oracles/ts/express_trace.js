// Running express 4.21.2 as the checker's second opinion (issue 50): every call of a method of
// express's app, request, response, Router, Route, Layer and View objects, recorded as
// "caller file<TAB>line<TAB>callee node" (the node ids of benchmarks/accuracy/ts_accuracy.py),
// while an app with routes, a sub-app, params, views, cookies, redirects and content
// negotiation answers GET and HEAD requests. Run with express installed in DIR:
//   (cd DIR && npm install express@4.21.2)
//   NODE_PATH=DIR/node_modules node benchmarks/oracles/ts/express_trace.js OUT.tsv
// Then: python -m benchmarks.accuracy.ts_runtime express-4.21.2 OUT.tsv
const path = require('path');
const fs = require('fs');
const root = path.dirname(require.resolve('express/package.json'));
const seen = new Set();
const labels = {
  'lib/application.js': 'app', 'lib/response.js': 'res', 'lib/request.js': 'req',
  'lib/router/index.js': 'default', 'lib/router/route.js': 'Route', 'lib/router/layer.js': 'Layer',
  'lib/view.js': 'View',
};
function wrapAll(obj, file) {
  const done = new Map();
  for (const key of Object.getOwnPropertyNames(obj)) {
    const d = Object.getOwnPropertyDescriptor(obj, key);
    if (!d || typeof d.value !== 'function' || key === 'constructor') continue;
    const orig = d.value;
    let w = done.get(orig);
    if (!w) {
      const names = Object.getOwnPropertyNames(obj).filter(k => { const e = Object.getOwnPropertyDescriptor(obj, k); return e && e.value === orig; });
      w = function (...args) {
        const frames = new Error().stack.split('\n');
        const m = /\((.*):(\d+):\d+\)$/.exec(frames[2]) || /at (.*):(\d+):\d+$/.exec(frames[2]);
        if (m && m[1].startsWith(root)) {
          for (const n of names) seen.add(`${path.relative(root, m[1])}\t${m[2]}\tts:${file}.${labels[file]}.${n}`);
        }
        return new.target ? Reflect.construct(orig, args, new.target) : orig.apply(this, args);
      };
      done.set(orig, w);
    }
    obj[key] = w;
  }
}
Error.stackTraceLimit = 5;
wrapAll(require('express/lib/application'), 'lib/application.js');
wrapAll(require('express/lib/response'), 'lib/response.js');
wrapAll(require('express/lib/request'), 'lib/request.js');
wrapAll(require('express/lib/router'), 'lib/router/index.js');
wrapAll(require('express/lib/router/route').prototype, 'lib/router/route.js');
wrapAll(require('express/lib/router/layer').prototype, 'lib/router/layer.js');
wrapAll(require('express/lib/view').prototype, 'lib/view.js');
const express = require('express');
const http = require('http');
const app = express();
const views = fs.mkdtempSync('/tmp/express_rt_views');
fs.writeFileSync(path.join(views, 'page.tpl'), 'hi');
fs.writeFileSync(path.join(views, 'file.txt'), 'file');
app.engine('tpl', (p, o, cb) => cb(null, fs.readFileSync(p, 'utf8')));
app.set('views', views);
app.set('view engine', 'tpl');
app.enable('trust proxy'); app.disable('x-powered-by');
const sub = express();
sub.get('/x', (req, res) => res.send('sub'));
app.use('/sub', sub);
app.param('id', (req, res, next, id) => { req.idv = id; next(); });
app.route('/r/:id').get((req, res) => res.json({ id: req.idv, q: req.query, ip: req.ip, host: req.hostname, fresh: req.fresh, xhr: req.xhr, acc: req.accepts('json'), ct: req.is('json'), h: req.get('host'), r: req.range(100), p: req.protocol, s: req.secure, sd: req.subdomains, pth: req.path, ips: req.ips, st: req.stale, ae: req.acceptsEncodings('gzip'), ac: req.acceptsCharsets('utf-8'), al: req.acceptsLanguages('en'), pa: req.param && 0 }));
app.get('/text', (req, res) => res.send('text'));
app.get('/buf', (req, res) => res.send(Buffer.from('b')));
app.get('/num', (req, res) => res.status(201).end());
app.get('/status', (req, res) => res.sendStatus(204));
app.get('/obj', (req, res) => res.send({ a: 1 }));
app.get('/jsonp', (req, res) => res.jsonp({ a: 1 }));
app.get('/file', (req, res) => res.sendFile(path.join(views, 'file.txt')));
app.get('/sendfile', (req, res) => res.sendfile(path.join(views, 'file.txt')));
app.get('/dl', (req, res) => res.download(path.join(views, 'file.txt')));
app.get('/cookie', (req, res) => { res.cookie('a', 'b', { signed: false }); res.cookie('o', { x: 1 }, { maxAge: 1000 }); res.clearCookie('c'); res.append('X-A', '1'); res.append('X-A', '2'); res.links({ next: '/n' }); res.links({ last: '/l' }); res.vary('Accept'); res.attachment('f.txt'); res.set({ 'X-B': '1' }); res.header('X-C', ['a']); res.type('json'); res.contentType('html'); res.send('ok'); });
app.get('/redir', (req, res) => res.redirect('back'));
app.get('/redir2', (req, res) => res.redirect(301, '/text'));
app.get('/loc', (req, res) => { res.location('/a'); res.end(); });
app.get('/fmt', (req, res) => res.format({ text: () => res.send('t'), json: () => res.json({}) }));
app.get('/fmt2', (req, res) => res.format({ 'application/xml': () => res.send('x') }));
app.get('/render', (req, res) => res.render('page'));
app.get('/render2', (req, res) => app.render('page', {}, (e, s) => res.send(s)));
app.get('/err', (req, res, next) => next(new Error('boom')));
app.get('/next', (req, res, next) => next('route'), (req, res) => res.send('never'));
app.all('/all', (req, res) => res.send('all'));
app.get('/json', (req, res) => { app.set('json spaces', 2); res.json({ a: 1 }); });
app.use((err, req, res, next) => res.status(500).send(err.message));
const server = app.listen(0, async () => {
  const port = server.address().port;
  const paths = ['/sub/x', '/r/7?a=1', '/text', '/buf', '/num', '/status', '/obj', '/jsonp?callback=cb', '/file', '/sendfile', '/dl', '/cookie', '/redir', '/redir2', '/loc', '/fmt', '/fmt2', '/render', '/render2', '/err', '/next', '/all', '/json', '/missing', '/text'];
  const heads = [{}, { Accept: 'application/json' }, { Accept: 'text/plain', 'If-None-Match': '*' }, { Accept: 'text/html' }];
  for (const p of paths) for (const h of heads) for (const method of ['GET', 'HEAD']) {
    await new Promise(done => { const r = http.request({ port, path: p, method, headers: h }, res => { res.resume(); res.on('end', done); }); r.on('error', done); r.end(); });
  }
  server.close();
  fs.writeFileSync(process.argv[2], [...seen].sort().join('\n') + '\n');
  console.log(seen.size, 'edges');
});
