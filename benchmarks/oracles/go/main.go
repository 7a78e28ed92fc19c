// Command gooracle writes go/types' answer for every call expression and every import of a Go
// module, and the SSA call graph's targets of every call through an interface method.
//
// Usage:
//
//	gooracle -dir MODULE_ROOT -out PREFIX [-graphs cha,vta]
//
// writes PREFIX.calls.json, PREFIX.imports.json and PREFIX.dispatch.json. The module's
// packages are loaded with `./...` and their tests (packages.Config{Tests: true}); a file that
// belongs to several package variants (p and p [p.test]) is reported once. Only files inside
// the module root are reported. The format is described in benchmarks/oracles/README.md.
//
// This program must never import graphrag_code's code: it is the independent judge.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
	"golang.org/x/tools/go/types/typeutil"
)

const toolsVersion = "golang.org/x/tools@v0.52.0"

// Decl is a declaration inside the module: file (root-relative), line of its name.
type Decl struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Name string `json:"name"` // pkgpath.Name or pkgpath.Recv.Name
	Kind string `json:"kind"` // func | method | interface-method | var
}

// Span is a caller declaration with the lines it covers (the func keyword or the var name
// to the closing brace), so that a graph's nested caller can be mapped to it by location.
type Span struct {
	Decl
	StartLine int `json:"start_line"`
	EndLine   int `json:"end_line"`
}

// Conversion is a conversion T(x): no call, listed apart so a graph's edge there is explained.
type Conversion struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Type string `json:"type"`
	Decl *Decl  `json:"decl"` // the type's declaration when in the module
}

// External names a callee declared outside the module.
type External struct {
	Pkg       string `json:"pkg"` // "" for builtins
	Recv      string `json:"recv,omitempty"`
	Name      string `json:"name"`
	Qualified string `json:"qualified"` // pkg.Recv.Name / pkg.Name / builtin name
}

// Call is one call expression.
type Call struct {
	File       string    `json:"file"`
	Line       int       `json:"line"`        // start of the call expression
	Col        int       `json:"col"`         // 1-based byte column of that start
	NameLine   int       `json:"name_line"`   // line of the callee's final name (Sel in a.b.M())
	LparenLine int       `json:"lparen_line"` // line and column of "(" (SSA's position of the call)
	LparenCol  int       `json:"lparen_col"`
	CalleeText string    `json:"callee_text"`
	Caller     *Decl     `json:"caller"` // enclosing named func / method; null at package level
	InClosure  bool      `json:"in_closure,omitempty"`
	InTestFile bool      `json:"in_test_file,omitempty"`
	Kind       string    `json:"kind"` // func | method | interface | typeparam | builtin | value
	Callee     *Decl     `json:"callee"`
	External   *External `json:"external"`
}

// Import is one import spec.
type Import struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Path     string `json:"path"`
	Alias    string `json:"alias"` // "", ".", "_" or a name
	InModule bool   `json:"in_module"`
	Std      bool   `json:"std"`
	Package  string `json:"package"` // import path of the importing file's package
}

// Dispatch is one call site whose static callee is an interface method, with the SSA targets.
type Dispatch struct {
	File    string             `json:"file"`
	Line    int                `json:"line"` // of "("
	Col     int                `json:"col"`
	Caller  string             `json:"caller"` // SSA name of the enclosing function
	Method  string             `json:"method"` // pkg.Iface.Name
	Targets map[string][]*Decl `json:"targets"`
	Outside map[string]int     `json:"outside"` // targets declared outside the module, per graph
}

type header struct {
	Module    string   `json:"module"`
	Root      string   `json:"root"`
	GoVersion string   `json:"go_version"`
	Tools     string   `json:"tools"`
	Files     []string `json:"files"`
	Packages  []string `json:"packages"`
	Errors    []string `json:"errors"`
	WallTimeS float64  `json:"wall_time_s"`
}

type oracle struct {
	root    string
	module  string
	fset    *token.FileSet
	files   map[string]bool
	calls   map[string]*Call
	imports map[string]*Import
	decls   map[string]*Span
	convs   map[string]*Conversion
}

func main() {
	dir := flag.String("dir", "", "module root (holds go.mod)")
	out := flag.String("out", "", "output prefix: PREFIX.calls.json, .imports.json, .dispatch.json")
	graphs := flag.String("graphs", "cha,vta", "SSA call graphs for dispatch sites (cha, vta; empty: none)")
	flag.Parse()
	if *dir == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: gooracle -dir MODULE_ROOT -out PREFIX [-graphs cha,vta]")
		os.Exit(2)
	}
	if err := run(*dir, *out, *graphs); err != nil {
		fmt.Fprintln(os.Stderr, "gooracle:", err)
		os.Exit(1)
	}
}

func run(dir, out, graphs string) error {
	start := time.Now()
	root, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if root, err = filepath.EvalSymlinks(root); err != nil {
		return err
	}
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax | packages.NeedModule,
		Dir:   root,
		Tests: true,
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		return fmt.Errorf("loading packages: %w", err)
	}
	if len(pkgs) == 0 {
		return fmt.Errorf("no packages under %s", root)
	}
	o := &oracle{root: root, fset: pkgs[0].Fset, files: map[string]bool{},
		calls: map[string]*Call{}, imports: map[string]*Import{},
		decls: map[string]*Span{}, convs: map[string]*Conversion{}}
	errs := []string{}
	var pkgPaths []string
	seenPkg := map[string]bool{}
	for _, p := range pkgs {
		if p.Module != nil && p.Module.Main && o.module == "" {
			o.module = p.Module.Path
		}
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	}
	if o.module == "" {
		return fmt.Errorf("no main module found under %s", root)
	}
	for _, p := range pkgs {
		if p.TypesInfo == nil {
			continue
		}
		if !seenPkg[p.PkgPath] && !strings.HasSuffix(p.PkgPath, ".test") {
			seenPkg[p.PkgPath] = true
			pkgPaths = append(pkgPaths, p.PkgPath)
		}
		for _, f := range p.Syntax {
			rel, ok := o.rel(f.Pos())
			if !ok {
				continue // the generated test main, or a file outside the module
			}
			o.files[rel] = true
			o.collectImports(p, f, rel)
			o.collectCalls(p, f, rel)
		}
	}
	sort.Strings(pkgPaths)
	sort.Strings(errs)
	h := header{Module: o.module, Root: filepath.Base(root), GoVersion: runtime.Version(),
		Tools: toolsVersion, Files: sortedKeys(o.files), Packages: pkgPaths, Errors: errs}

	calls := make([]*Call, 0, len(o.calls))
	for _, k := range sortedKeys(o.calls) {
		calls = append(calls, o.calls[k])
	}
	imports := make([]*Import, 0, len(o.imports))
	for _, k := range sortedKeys(o.imports) {
		imports = append(imports, o.imports[k])
	}
	decls := make([]*Span, 0, len(o.decls))
	for _, k := range sortedKeys(o.decls) {
		decls = append(decls, o.decls[k])
	}
	convs := make([]*Conversion, 0, len(o.convs))
	for _, k := range sortedKeys(o.convs) {
		convs = append(convs, o.convs[k])
	}
	h.WallTimeS = time.Since(start).Seconds()
	if err := writeJSON(out+".calls.json", struct {
		header
		Decls       []*Span       `json:"decls"`
		Calls       []*Call       `json:"calls"`
		Conversions []*Conversion `json:"conversions"`
	}{h, decls, calls, convs}); err != nil {
		return err
	}
	if err := writeJSON(out+".imports.json", struct {
		header
		Imports []*Import `json:"imports"`
	}{h, imports}); err != nil {
		return err
	}
	var algos []string
	for _, g := range strings.Split(graphs, ",") {
		if g = strings.TrimSpace(g); g != "" {
			algos = append(algos, g)
		}
	}
	sites, err := o.dispatch(pkgs, algos)
	if err != nil {
		return err
	}
	h.WallTimeS = time.Since(start).Seconds()
	return writeJSON(out+".dispatch.json", struct {
		header
		Graphs []string    `json:"graphs"`
		Sites  []*Dispatch `json:"sites"`
	}{h, algos, sites})
}

// rel gives the module-root-relative POSIX path of the file holding pos.
func (o *oracle) rel(pos token.Pos) (string, bool) {
	if !pos.IsValid() {
		return "", false
	}
	name := o.fset.Position(pos).Filename
	r, err := filepath.Rel(o.root, name)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

func (o *oracle) inModule(path string) bool {
	return path == o.module || strings.HasPrefix(path, o.module+"/")
}

func (o *oracle) collectImports(p *packages.Package, f *ast.File, rel string) {
	for _, spec := range f.Imports {
		path := strings.Trim(spec.Path.Value, "`\"")
		alias := ""
		if spec.Name != nil {
			alias = spec.Name.Name
		}
		line := o.fset.Position(spec.Pos()).Line
		key := fmt.Sprintf("%s:%09d:%s", rel, line, path)
		if _, seen := o.imports[key]; seen {
			continue
		}
		// the standard library's import paths have no dot in their first element
		std := !o.inModule(path) && !strings.Contains(strings.SplitN(path, "/", 2)[0], ".")
		o.imports[key] = &Import{File: rel, Line: line, Path: path, Alias: alias,
			InModule: o.inModule(path), Std: std, Package: p.PkgPath}
	}
}

// collectCalls walks the file's declarations. Calls in a FuncDecl (closures included) get
// that FuncDecl as caller; calls inside a function literal in a package-level var spec
// (`var h = func() { ... }`) get that var; other package-level calls (initialisers) get none.
func (o *oracle) collectCalls(p *packages.Package, f *ast.File, rel string) {
	isTest := strings.HasSuffix(rel, "_test.go")
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			var caller *Decl
			if obj, ok := p.TypesInfo.Defs[d.Name].(*types.Func); ok {
				caller = o.declOf(obj)
			}
			if caller == nil || d.Name.Name == "init" { // init: no object, several per package
				kind := "func"
				if d.Recv != nil {
					kind = "method"
				}
				caller = &Decl{File: rel, Line: o.fset.Position(d.Name.Pos()).Line,
					Name: p.PkgPath + "." + d.Name.Name, Kind: kind}
			}
			o.addSpan(caller, d)
			o.walkCalls(p, d, rel, caller, isTest)
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				vs, ok := spec.(*ast.ValueSpec)
				if !ok {
					o.walkCalls(p, spec, rel, nil, isTest)
					continue
				}
				for i, value := range vs.Values {
					var caller *Decl
					if _, isLit := ast.Unparen(value).(*ast.FuncLit); isLit && i < len(vs.Names) {
						name := vs.Names[i]
						caller = &Decl{File: rel, Line: o.fset.Position(name.Pos()).Line,
							Name: p.PkgPath + "." + name.Name, Kind: "var"}
						o.addSpan(caller, value)
					}
					o.walkCalls(p, value, rel, caller, isTest)
				}
			}
		}
	}
}

func (o *oracle) addSpan(d *Decl, n ast.Node) {
	key := fmt.Sprintf("%s:%09d:%s", d.File, d.Line, d.Name)
	o.decls[key] = &Span{Decl: *d, StartLine: o.fset.Position(n.Pos()).Line,
		EndLine: o.fset.Position(n.End()).Line}
}

func (o *oracle) walkCalls(p *packages.Package, n ast.Node, rel string, caller *Decl, isTest bool) {
	closures := 0
	astutil.Apply(n, func(c *astutil.Cursor) bool {
		switch n := c.Node().(type) {
		case *ast.FuncLit:
			closures++
		case *ast.CallExpr:
			o.addCall(p, n, rel, caller, closures > 0, isTest)
		}
		return true
	}, func(c *astutil.Cursor) bool {
		if _, ok := c.Node().(*ast.FuncLit); ok {
			closures--
		}
		return true
	})
}

func (o *oracle) addCall(p *packages.Package, call *ast.CallExpr, rel string, caller *Decl, inClosure, isTest bool) {
	info := p.TypesInfo
	start := o.fset.Position(call.Pos())
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		o.addConversion(tv.Type, rel, start.Line)
		return // a conversion T(x): no call
	}
	// a.F().G() and a.F() start at the same place: the "(" tells them apart
	key := fmt.Sprintf("%s:%09d:%06d:%09d", rel, start.Line, start.Column, o.fset.Position(call.Lparen).Offset)
	if _, seen := o.calls[key]; seen {
		return
	}
	fun := ast.Unparen(call.Fun)
	nameNode := fun
	switch f := fun.(type) {
	case *ast.SelectorExpr:
		nameNode = f.Sel
	case *ast.IndexExpr: // f[T](x)
		nameNode = f.X
		if s, ok := ast.Unparen(f.X).(*ast.SelectorExpr); ok {
			nameNode = s.Sel
		}
	case *ast.IndexListExpr:
		nameNode = f.X
		if s, ok := ast.Unparen(f.X).(*ast.SelectorExpr); ok {
			nameNode = s.Sel
		}
	}
	lp := o.fset.Position(call.Lparen)
	c := &Call{File: rel, Line: start.Line, Col: start.Column,
		NameLine: o.fset.Position(nameNode.Pos()).Line, LparenLine: lp.Line, LparenCol: lp.Column,
		CalleeText: o.text(call.Fun), Caller: caller, InClosure: inClosure, InTestFile: isTest}
	obj := typeutil.Callee(info, call)
	switch obj := obj.(type) {
	case *types.Builtin:
		c.Kind = "builtin"
		c.External = &External{Name: obj.Name(), Qualified: obj.Name()}
	case *types.Func:
		obj = obj.Origin()
		sig, _ := obj.Type().(*types.Signature)
		c.Kind = "func"
		if sig != nil && sig.Recv() != nil {
			c.Kind = "method"
			rt := sig.Recv().Type()
			if _, isTP := types.Unalias(rt).(*types.TypeParam); isTP {
				c.Kind = "typeparam"
			} else if types.IsInterface(rt) {
				c.Kind = "interface"
				if _, ok := types.Unalias(rt).(*types.Named); !ok {
					// a method of an interface literal or of a type parameter's constraint
					if sel, ok := fun.(*ast.SelectorExpr); ok {
						if _, isTP := types.Unalias(info.TypeOf(sel.X)).(*types.TypeParam); isTP {
							c.Kind = "typeparam"
						}
					}
				}
			}
		}
		if d := o.declOf(obj); d != nil {
			c.Callee = d
		} else {
			c.External = externalOf(obj)
		}
	default: // a variable, field, parameter or a call of a call: no static callee
		c.Kind = "value"
	}
	o.calls[key] = c
}

func (o *oracle) addConversion(t types.Type, rel string, line int) {
	c := &Conversion{File: rel, Line: line, Type: types.TypeString(t, nil)}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		if r, ok := o.rel(n.Obj().Pos()); ok {
			c.Decl = &Decl{File: r, Line: o.fset.Position(n.Obj().Pos()).Line,
				Name: n.Obj().Pkg().Path() + "." + n.Obj().Name(), Kind: "type"}
		}
	}
	o.convs[fmt.Sprintf("%s:%09d:%s", rel, line, c.Type)] = c
}

func (o *oracle) text(e ast.Expr) string {
	s := types.ExprString(e)
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}

// recvName is the receiver's type name without pointer or type arguments.
func recvName(fn *types.Func) string {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return ""
	}
	t := types.Unalias(sig.Recv().Type())
	if ptr, ok := t.(*types.Pointer); ok {
		t = types.Unalias(ptr.Elem())
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

func (o *oracle) declOf(fn *types.Func) *Decl {
	rel, ok := o.rel(fn.Pos())
	if !ok || fn.Pkg() == nil {
		return nil
	}
	name := fn.Pkg().Path() + "."
	kind := "func"
	if r := recvName(fn); r != "" {
		name += r + "."
		kind = "method"
		if sig := fn.Type().(*types.Signature); types.IsInterface(sig.Recv().Type()) {
			kind = "interface-method"
		}
	}
	return &Decl{File: rel, Line: o.fset.Position(fn.Pos()).Line, Name: name + fn.Name(), Kind: kind}
}

func externalOf(fn *types.Func) *External {
	e := &External{Name: fn.Name(), Recv: recvName(fn)}
	if fn.Pkg() != nil {
		e.Pkg = fn.Pkg().Path()
	}
	parts := []string{}
	if e.Pkg != "" {
		parts = append(parts, e.Pkg)
	}
	if e.Recv != "" {
		parts = append(parts, e.Recv)
	}
	e.Qualified = strings.Join(append(parts, e.Name), ".")
	return e
}

// dispatch builds SSA for every loaded package and, per requested call graph, the targets of
// each call site whose static callee is an interface method (an "invoke" in SSA).
func (o *oracle) dispatch(pkgs []*packages.Package, algos []string) ([]*Dispatch, error) {
	if len(algos) == 0 {
		return nil, nil
	}
	prog, _ := ssautil.AllPackages(pkgs, ssa.InstantiateGenerics)
	prog.Build()
	sites := map[string]*Dispatch{}
	var cg *callgraph.Graph
	for _, algo := range algos {
		switch algo {
		case "cha":
			cg = cha.CallGraph(prog)
		case "vta":
			funcs := ssautil.AllFunctions(prog)
			init := cg
			if init == nil {
				init = cha.CallGraph(prog)
			}
			cg = vta.CallGraph(funcs, init)
		default:
			return nil, fmt.Errorf("unknown call graph %q (cha, vta)", algo)
		}
		for _, n := range cg.Nodes {
			for _, e := range n.Out {
				if e.Site == nil || !e.Site.Common().IsInvoke() {
					continue
				}
				rel, ok := o.rel(e.Site.Pos())
				if !ok {
					continue
				}
				pos := o.fset.Position(e.Site.Pos())
				key := fmt.Sprintf("%s:%09d:%06d", rel, pos.Line, pos.Column)
				d := sites[key]
				if d == nil {
					m := e.Site.Common().Method
					d = &Dispatch{File: rel, Line: pos.Line, Col: pos.Column,
						Caller: e.Caller.Func.String(), Method: externalOf(m).Qualified,
						Targets: map[string][]*Decl{}, Outside: map[string]int{}}
					for _, a := range algos {
						d.Targets[a] = []*Decl{}
						d.Outside[a] = 0
					}
					sites[key] = d
				}
				callee := e.Callee.Func
				obj, _ := callee.Object().(*types.Func)
				if obj == nil && callee.Origin() != nil {
					obj, _ = callee.Origin().Object().(*types.Func)
				}
				var decl *Decl
				if obj != nil {
					decl = o.declOf(obj.Origin())
				}
				if decl == nil {
					d.Outside[algo]++
					continue
				}
				dup := false
				for _, t := range d.Targets[algo] {
					if t.File == decl.File && t.Line == decl.Line {
						dup = true
					}
				}
				if !dup {
					d.Targets[algo] = append(d.Targets[algo], decl)
				}
			}
		}
	}
	out := make([]*Dispatch, 0, len(sites))
	for _, k := range sortedKeys(sites) {
		d := sites[k]
		for _, ts := range d.Targets {
			sort.Slice(ts, func(i, j int) bool {
				return ts[i].File < ts[j].File || (ts[i].File == ts[j].File && ts[i].Line < ts[j].Line)
			})
		}
		out = append(out, d)
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}
