// javac as an oracle: every import, method invocation, constructor call and method reference
// of a source tree, with the declaration javac attributes it to (Trees.getElement), and the
// repository's overrides of every virtual callee (a CHA-style answer for dispatch edges).
//
//   javac -d OUT --add-exports jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED JavaOracle.java
//   java -cp OUT --add-exports jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED JavaOracle \
//        SOURCE_ROOT CLASS_PATH OUT.json
//
// Positions: a declaration's `line` is the line of its name (JCTree.pos), `start_line` the
// first line of its modifiers, `end_line` its last. A call's `line` is the line of the method
// name (after the dot of a member select), of `new` for a constructor, of `this` / `super` for
// an explicit constructor call, of `::` for a method reference; `start_line` is the expression's
// first line. The format is in benchmarks/oracles/README.md. Standard library only, no
// dependency; the JSON is written by hand.

import com.sun.source.tree.*;
import com.sun.source.util.*;
import com.sun.tools.javac.tree.JCTree;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.stream.*;
import javax.lang.model.element.*;
import javax.lang.model.type.*;
import javax.lang.model.util.*;
import javax.tools.*;

public final class JavaOracle {
  private final Path root;
  private Trees trees;
  private Types types;
  private Elements elements;
  private final StringBuilder calls = new StringBuilder();
  private final StringBuilder decls = new StringBuilder();
  private final StringBuilder imports = new StringBuilder();
  private final StringBuilder dispatch = new StringBuilder();
  private final List<String> files = new ArrayList<>();
  // every method declared in the sources (anonymous and local classes too), by simple name
  private final Map<String, List<ExecutableElement>> sourceMethods = new HashMap<>();
  private int callCount;
  private int declCount;
  private int importCount;
  private int dispatchCount;

  private JavaOracle(Path root) {
    this.root = root;
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: JavaOracle SOURCE_ROOT CLASS_PATH OUT.json");
      System.exit(2);
    }
    long started = System.nanoTime();
    new JavaOracle(Paths.get(args[0]).toAbsolutePath().normalize()).run(args[1], Paths.get(args[2]), started);
  }

  private void run(String classPath, Path out, long started) throws IOException {
    List<Path> sources;
    try (Stream<Path> walk = Files.walk(root)) {
      sources = walk.filter(p -> p.toString().endsWith(".java"))
          .filter(p -> !p.getFileName().toString().equals("module-info.java"))
          .sorted().collect(Collectors.toList());
    }
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    StandardJavaFileManager fm = compiler.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8);
    List<String> options = new ArrayList<>(List.of("-proc:none", "-implicit:none", "-Xmaxerrs", "100000",
        "-encoding", "UTF-8", "-d", Files.createTempDirectory("javaoracle").toString()));
    if (!classPath.isEmpty()) {
      options.addAll(List.of("-classpath", classPath));
    }
    JavacTask task = (JavacTask) compiler.getTask(null, fm, diagnostics, options, null,
        fm.getJavaFileObjectsFromPaths(sources));
    trees = Trees.instance(task);
    types = task.getTypes();
    elements = task.getElements();
    List<CompilationUnitTree> units = new ArrayList<>();
    for (CompilationUnitTree unit : task.parse()) {
      units.add(unit);
    }
    task.analyze();
    for (CompilationUnitTree unit : units) {
      new Indexer(unit).scan(unit, null);
    }
    for (CompilationUnitTree unit : units) {
      new CallScanner(unit).scan(unit, null);
    }
    StringBuilder errors = new StringBuilder();
    int errorCount = 0;
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      if (d.getKind() != Diagnostic.Kind.ERROR) {
        continue;
      }
      String where = d.getSource() == null ? "" : rel(Paths.get(d.getSource().toUri())) + ":" + d.getLineNumber();
      sep(errors, errorCount++).append(str(where + ": " + d.getMessage(Locale.ROOT)));
    }
    StringBuilder json = new StringBuilder("{\n\"oracle\": \"javac ").append(System.getProperty("java.version"))
        .append("\",\n\"files\": [");
    for (int i = 0; i < files.size(); i++) {
      sep(json, i).append(str(files.get(i)));
    }
    json.append("],\n\"errors\": [").append(errors).append("],\n\"decls\": [").append(decls)
        .append("],\n\"imports\": [").append(imports).append("],\n\"calls\": [").append(calls)
        .append("],\n\"dispatch\": [").append(dispatch).append("],\n\"wall_time_s\": ")
        .append(String.format(Locale.ROOT, "%.2f", (System.nanoTime() - started) / 1e9)).append("\n}\n");
    Files.writeString(out, json.toString(), StandardCharsets.UTF_8);
    System.out.printf(Locale.ROOT, "%d files, %d decls, %d imports, %d calls, %d dispatch sites, %d errors%n",
        files.size(), declCount, importCount, callCount, dispatchCount, errorCount);
  }

  // ---------------------------------------------------------------------------------------
  // helpers

  private String rel(Path p) {
    return root.relativize(p.toAbsolutePath().normalize()).toString().replace('\\', '/');
  }

  private static StringBuilder sep(StringBuilder sb, int index) {
    return sb.append(index == 0 ? "\n" : ",\n");
  }

  private static String str(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"': sb.append("\\\""); break;
        case '\\': sb.append("\\\\"); break;
        case '\n': sb.append("\\n"); break;
        case '\r': sb.append("\\r"); break;
        case '\t': sb.append("\\t"); break;
        default:
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
      }
    }
    return sb.append('"').toString();
  }

  private static long line(CompilationUnitTree unit, long pos) {
    return pos < 0 ? 0 : unit.getLineMap().getLineNumber(pos);
  }

  private String erasedParams(ExecutableElement e) {
    return e.getParameters().stream().map(p -> types.erasure(p.asType()).toString().replaceAll("@\\S+ ", ""))
        .collect(Collectors.joining(","));
  }

  private static boolean named(TypeElement t) {
    // a top-level or member class; anonymous and local classes are not named members
    Element up = t;
    while (up instanceof TypeElement) {
      NestingKind n = ((TypeElement) up).getNestingKind();
      if (n == NestingKind.ANONYMOUS || n == NestingKind.LOCAL) {
        return false;
      }
      up = up.getEnclosingElement();
    }
    return true;
  }

  /** "file": ..., "line": ... of a source declaration, or null when it is not in the sources. */
  private String location(Element e) {
    TreePath path = trees.getPath(e);
    if (path == null) {
      return accessorLocation(e);
    }
    CompilationUnitTree unit = path.getCompilationUnit();
    Tree leaf = path.getLeaf();
    String file = rel(Paths.get(unit.getSourceFile().toUri()));
    long pos = ((JCTree) leaf).pos;
    boolean implicit = false;
    if (e.getKind() == ElementKind.CONSTRUCTOR && leaf instanceof ClassTree) {
      implicit = true; // a default constructor: javac points at its class
    } else if (e.getKind() == ElementKind.CONSTRUCTOR && leaf instanceof MethodTree
        && trees.getSourcePositions().getEndPosition(unit, leaf) < 0) {
      implicit = true;
    }
    if (implicit) {
      pos = ((JCTree) trees.getTree(e.getEnclosingElement())).pos;
    }
    return "\"file\": " + str(file) + ", \"line\": " + line(unit, pos) + (implicit ? ", \"implicit\": true" : "");
  }

  /**
   * A record's accessor javac made (not in the source; no tree): at its component's field,
   * "implicit": true; null for anything else without a tree.
   */
  private String accessorLocation(Element e) {
    Element owner = e.getEnclosingElement();
    if (e.getKind() != ElementKind.METHOD || owner == null || owner.getKind() != ElementKind.RECORD) {
      return null;
    }
    for (RecordComponentElement component : ElementFilter.recordComponentsIn(owner.getEnclosedElements())) {
      if (!e.equals(component.getAccessor())) {
        continue;
      }
      for (VariableElement field : ElementFilter.fieldsIn(owner.getEnclosedElements())) {
        TreePath path = field.getSimpleName().equals(component.getSimpleName()) ? trees.getPath(field) : null;
        if (path != null) {
          String file = rel(Paths.get(path.getCompilationUnit().getSourceFile().toUri()));
          return "\"file\": " + str(file) + ", \"line\": "
              + line(path.getCompilationUnit(), ((JCTree) path.getLeaf()).pos) + ", \"implicit\": true";
        }
      }
    }
    return null;
  }

  private String typeName(TypeElement t) {
    return elements.getBinaryName(t).toString();
  }

  private String callee(ExecutableElement e) {
    TypeElement owner = (TypeElement) e.getEnclosingElement();
    StringBuilder sb = new StringBuilder("{\"class\": ").append(str(typeName(owner)))
        .append(", \"qualified_class\": ").append(str(owner.getQualifiedName().toString()))
        .append(", \"class_kind\": ").append(str(owner.getKind().toString().toLowerCase(Locale.ROOT)))
        .append(", \"name\": ").append(str(e.getSimpleName().toString()))
        .append(", \"params\": ").append(str(erasedParams(e)));
    Set<Modifier> mods = e.getModifiers();
    if (mods.contains(Modifier.STATIC)) {
      sb.append(", \"static\": true");
    }
    if (mods.contains(Modifier.ABSTRACT)) {
      sb.append(", \"abstract\": true");
    }
    String loc = location(e);
    if (loc != null) {
      sb.append(", ").append(loc);
      long overloads = owner.getEnclosedElements().stream()
          .filter(m -> m.getKind() == e.getKind() && m.getSimpleName().equals(e.getSimpleName())).count();
      sb.append(", \"overloads\": ").append(overloads);
    }
    return sb.append('}').toString();
  }

  // ---------------------------------------------------------------------------------------
  // declarations, imports and the index of source methods

  private final class Indexer extends TreePathScanner<Void, Void> {
    private final CompilationUnitTree unit;
    private final String file;

    Indexer(CompilationUnitTree unit) {
      this.unit = unit;
      this.file = rel(Paths.get(unit.getSourceFile().toUri()));
      files.add(file);
    }

    private void decl(String kind, Tree tree, String name, long namePos, String owner, long ownerLine) {
      decl(kind, tree, name, namePos, owner, ownerLine, null);
    }

    private void decl(String kind, Tree tree, String name, long namePos, String owner, long ownerLine,
        String qualified) {
      SourcePositions sp = trees.getSourcePositions();
      long end = sp.getEndPosition(unit, tree);
      if (end < 0) {
        return; // generated by javac (a default constructor)
      }
      sep(decls, declCount++).append("{\"file\": ").append(str(file)).append(", \"kind\": ").append(str(kind))
          .append(", \"name\": ").append(str(name)).append(", \"line\": ").append(line(unit, namePos))
          .append(", \"start_line\": ").append(line(unit, sp.getStartPosition(unit, tree)))
          .append(", \"end_line\": ").append(line(unit, end))
          .append(", \"class\": ").append(str(owner)).append(", \"class_line\": ").append(ownerLine);
      if (qualified != null) {
        decls.append(", \"qualified\": ").append(str(qualified));
      }
      decls.append('}');
    }

    @Override
    public Void visitImport(ImportTree node, Void p) {
      String name = node.getQualifiedIdentifier().toString();
      boolean onDemand = name.endsWith(".*");
      sep(imports, importCount++).append("{\"file\": ").append(str(file)).append(", \"line\": ")
          .append(line(unit, trees.getSourcePositions().getStartPosition(unit, node)))
          .append(", \"name\": ").append(str(onDemand ? name.substring(0, name.length() - 2) : name))
          .append(", \"static\": ").append(node.isStatic()).append(", \"on_demand\": ").append(onDemand);
      Element target = trees.getElement(new TreePath(new TreePath(getCurrentPath(), node.getQualifiedIdentifier()),
          node.getQualifiedIdentifier()));
      if (!onDemand && !node.isStatic() && target == null) {
        target = elements.getTypeElement(name);
      }
      String loc = target == null ? null : location(target);
      imports.append(", \"in_sources\": ").append(loc != null);
      if (loc != null) {
        imports.append(", \"target\": {").append(loc).append('}');
      }
      imports.append('}');
      return null;
    }

    @Override
    public Void visitClass(ClassTree node, Void p) {
      Element e = trees.getElement(getCurrentPath());
      if (e instanceof TypeElement) {
        TypeElement t = (TypeElement) e;
        boolean isNamed = named(t);
        if (isNamed) {
          decl(t.getKind().toString().toLowerCase(Locale.ROOT), node, typeName(t), ((JCTree) node).pos, "", 0,
              t.getQualifiedName().toString());
        }
        String owner = typeName(t);
        long ownerLine = line(unit, ((JCTree) node).pos);
        for (Element member : t.getEnclosedElements()) {
          if (member instanceof ExecutableElement) {
            sourceMethods.computeIfAbsent(member.getSimpleName().toString(), k -> new ArrayList<>())
                .add((ExecutableElement) member);
          }
        }
        if (!isNamed) {
          // an anonymous or local class and its methods: declarations a call or an override may
          // name, but not callers (their calls belong to the named member around them)
          decl("local_class", node, typeName(t), ((JCTree) node).pos, "", 0);
          for (Tree member : node.getMembers()) {
            if (member instanceof MethodTree) {
              MethodTree m = (MethodTree) member;
              ExecutableElement me = (ExecutableElement) trees.getElement(new TreePath(getCurrentPath(), m));
              decl("local_method", m, m.getName() + "(" + (me == null ? "?" : erasedParams(me)) + ")",
                  ((JCTree) m).pos, owner, ownerLine);
            }
          }
        } else {
          for (Tree member : node.getMembers()) {
            if (member instanceof MethodTree) {
              MethodTree m = (MethodTree) member;
              ExecutableElement me = (ExecutableElement) trees.getElement(new TreePath(getCurrentPath(), m));
              String kind = me != null && me.getKind() == ElementKind.CONSTRUCTOR ? "constructor" : "method";
              decl(kind, m, m.getName() + "(" + (me == null ? "?" : erasedParams(me)) + ")", ((JCTree) m).pos,
                  owner, ownerLine);
            } else if (member instanceof VariableTree) {
              VariableTree v = (VariableTree) member;
              decl("field", v, v.getName().toString(), ((JCTree) v).pos, owner, ownerLine);
            } else if (member instanceof BlockTree) {
              BlockTree b = (BlockTree) member;
              decl(b.isStatic() ? "static_initializer" : "initializer", b, "", ((JCTree) b).pos, owner, ownerLine);
            }
          }
        }
      }
      return super.visitClass(node, p);
    }
  }

  // ---------------------------------------------------------------------------------------
  // calls

  private final class CallScanner extends TreePathScanner<Void, Void> {
    private final CompilationUnitTree unit;
    private final String file;

    CallScanner(CompilationUnitTree unit) {
      this.unit = unit;
      this.file = rel(Paths.get(unit.getSourceFile().toUri()));
    }

    /** The named member the current path is in: (kind, name line), or null at class level. */
    private String caller() {
      Tree named = null;
      for (TreePath p = getCurrentPath(); p != null; p = p.getParentPath()) {
        Tree leaf = p.getLeaf();
        TreePath parent = p.getParentPath();
        if (parent == null || !(parent.getLeaf() instanceof ClassTree)) {
          continue;
        }
        Element cls = trees.getElement(parent);
        if (!(cls instanceof TypeElement) || !named((TypeElement) cls)) {
          continue;
        }
        if (leaf instanceof MethodTree || leaf instanceof VariableTree || leaf instanceof BlockTree) {
          named = leaf;
          break;
        }
      }
      if (named == null) {
        return null;
      }
      return "{\"file\": " + str(file) + ", \"line\": " + line(unit, ((JCTree) named).pos) + "}";
    }

    private void record(String kind, Tree expr, long namePos, ExecutableElement e, TypeMirror receiver,
        boolean superCall, String extra) {
      SourcePositions sp = trees.getSourcePositions();
      sep(calls, callCount).append("{\"id\": ").append(callCount).append(", \"file\": ").append(str(file))
          .append(", \"kind\": ").append(str(kind)).append(", \"line\": ").append(line(unit, namePos))
          .append(", \"start_line\": ").append(line(unit, sp.getStartPosition(unit, expr)))
          .append(", \"col\": ").append(unit.getLineMap().getColumnNumber(Math.max(namePos, 0)));
      String caller = caller();
      calls.append(", \"caller\": ").append(caller == null ? "null" : caller);
      calls.append(", \"callee\": ").append(e == null ? "null" : callee(e));
      if (e != null && location(e) == null && e.getKind() == ElementKind.METHOD) {
        // an external method is a member of every type between the receiver and its declarer
        List<TypeMirror> from = new ArrayList<>();
        if (receiver != null && receiver.getKind() == TypeKind.UNION) {
          from.addAll(((UnionType) receiver).getAlternatives()); // catch (A | B e): e.m()
        } else if (receiver != null && receiver.getKind() == TypeKind.DECLARED) {
          from.add(receiver);
        } else if (receiver != null && receiver.getKind() == TypeKind.TYPEVAR) {
          from.add(((TypeVariable) receiver).getUpperBound());
        } else if (receiver == null && enclosingWith(e) != null) {
          from.add(enclosingWith(e));
        }
        if (!from.isEmpty()) {
          Set<String> names = new TreeSet<>();
          for (TypeMirror t : from) {
            memberOf(t, types.erasure(e.getEnclosingElement().asType()), names);
          }
          calls.append(", \"member_of\": [").append(names.stream().map(JavaOracle::str)
              .collect(Collectors.joining(", "))).append(']');
        }
      }
      if (receiver != null && receiver.getKind() == TypeKind.DECLARED) {
        calls.append(", \"receiver\": ").append(str(types.erasure(receiver).toString()));
      }
      if (extra != null) {
        calls.append(extra);
      }
      boolean virtual = e != null && !superCall && e.getKind() == ElementKind.METHOD
          && !e.getModifiers().contains(Modifier.STATIC) && !e.getModifiers().contains(Modifier.PRIVATE);
      if (virtual) {
        TypeElement owner = (TypeElement) e.getEnclosingElement();
        boolean viaInterface = owner.getKind().isInterface();
        boolean viaAbstract = e.getModifiers().contains(Modifier.ABSTRACT);
        calls.append(", \"virtual\": ").append(str(viaInterface ? "interface" : viaAbstract ? "abstract" : "class"));
        dispatchSite(callCount, e, receiver);
      }
      calls.append('}');
      callCount++;
    }

    /** The innermost class around the call that has `e` as a member (an unqualified call). */
    private TypeMirror enclosingWith(ExecutableElement e) {
      TypeMirror owner = types.erasure(e.getEnclosingElement().asType());
      for (TreePath p = getCurrentPath(); p != null; p = p.getParentPath()) {
        if (p.getLeaf() instanceof ClassTree) {
          Element c = trees.getElement(p);
          if (c != null && types.isSubtype(types.erasure(c.asType()), owner)) {
            return c.asType();
          }
        }
      }
      return null;
    }

    private void memberOf(TypeMirror t, TypeMirror owner, Set<String> names) {
      TypeMirror erased = types.erasure(t);
      if (erased.getKind() != TypeKind.DECLARED || !types.isSubtype(erased, owner)) {
        return;
      }
      if (names.add(((TypeElement) types.asElement(erased)).getQualifiedName().toString())) {
        for (TypeMirror up : types.directSupertypes(erased)) {
          memberOf(up, owner, names);
        }
      }
    }

    /** The source methods a virtual call may run (CHA over the receiver's static type). */
    private void dispatchSite(int id, ExecutableElement callee, TypeMirror receiver) {
      TypeElement owner = (TypeElement) callee.getEnclosingElement();
      TypeMirror bound = receiver != null && receiver.getKind() == TypeKind.DECLARED
          ? types.erasure(receiver) : types.erasure(owner.asType());
      List<String> targets = new ArrayList<>();
      int itself = 0;
      if (!callee.getModifiers().contains(Modifier.ABSTRACT) && location(callee) != null) {
        targets.add("{" + location(callee) + "}");
        itself = 1;
      }
      for (ExecutableElement m : sourceMethods.getOrDefault(callee.getSimpleName().toString(), List.of())) {
        if (m.equals(callee) || m.getModifiers().contains(Modifier.ABSTRACT)) {
          continue;
        }
        TypeElement mOwner = (TypeElement) m.getEnclosingElement();
        if (!types.isSubtype(types.erasure(mOwner.asType()), bound)
            || !elements.overrides(m, callee, mOwner)) {
          continue;
        }
        String loc = location(m);
        if (loc != null) {
          boolean anon = !named(mOwner);
          targets.add("{" + loc + ", \"class\": " + str(typeName(mOwner)) + (anon ? ", \"anonymous\": true" : "") + "}");
        }
      }
      if (targets.size() <= itself
          && !callee.getEnclosingElement().getKind().isInterface() && !callee.getModifiers().contains(Modifier.ABSTRACT)) {
        // a concrete method nobody in the sources overrides: no dispatch (v1 also dropped an
        // external concrete method, `Writer.write(int)`, with one override in the sources)
        return;
      }
      sep(dispatch, dispatchCount++).append("{\"call\": ").append(id).append(", \"receiver\": ")
          .append(str(bound.toString())).append(", \"targets\": [").append(String.join(", ", targets)).append("]}");
    }

    @Override
    public Void visitMethodInvocation(MethodInvocationTree node, Void p) {
      if (trees.getSourcePositions().getEndPosition(unit, node) < 0) {
        implicitSuper(node);
        return super.visitMethodInvocation(node, p);
      }
      Element e = trees.getElement(getCurrentPath());
      ExpressionTree select = node.getMethodSelect();
      long namePos;
      TypeMirror receiver = null;
      boolean superCall = false;
      String kind = "method";
      if (select instanceof MemberSelectTree) {
        MemberSelectTree ms = (MemberSelectTree) select;
        long end = trees.getSourcePositions().getEndPosition(unit, ms);
        namePos = end - ms.getIdentifier().length();
        ExpressionTree target = ms.getExpression();
        superCall = target instanceof IdentifierTree && ((IdentifierTree) target).getName().contentEquals("super")
            || target instanceof MemberSelectTree && ((MemberSelectTree) target).getIdentifier().contentEquals("super");
        TypeMirror t = trees.getTypeMirror(new TreePath(new TreePath(getCurrentPath(), ms), target));
        receiver = t;
      } else {
        namePos = trees.getSourcePositions().getStartPosition(unit, select);
        if (select instanceof IdentifierTree) {
          String n = ((IdentifierTree) select).getName().toString();
          if (n.equals("this") || n.equals("super")) {
            kind = n; // an explicit constructor call
            superCall = true;
          }
        }
      }
      if (kind.equals("method") && e != null && e.getKind() == ElementKind.METHOD
          && e.getModifiers().contains(Modifier.STATIC)) {
        kind = "static";
      }
      record(kind, node, namePos, e instanceof ExecutableElement ? (ExecutableElement) e : null, receiver,
          superCall, superCall && kind.equals("method") ? ", \"super\": true" : null);
      return super.visitMethodInvocation(node, p);
    }

    /**
     * A `super()` javac's Attr inserted (not in the source): into a constructor with no explicit
     * `this(...)` / `super(...)`, at its body's `{`, and into a default constructor, at its class's
     * name. Recorded as kind "super" with "implicit": true; none for an anonymous class (its
     * constructor's super call is the `new` around it, recorded there).
     */
    private void implicitSuper(MethodInvocationTree node) {
      ExpressionTree select = node.getMethodSelect();
      if (!(select instanceof IdentifierTree) || !((IdentifierTree) select).getName().contentEquals("super")) {
        return;
      }
      for (TreePath p = getCurrentPath(); p != null; p = p.getParentPath()) {
        if (p.getLeaf() instanceof ClassTree) {
          Element cls = trees.getElement(p);
          if (cls instanceof TypeElement && ((TypeElement) cls).getNestingKind() == NestingKind.ANONYMOUS) {
            return;
          }
          break;
        }
      }
      Element e = trees.getElement(getCurrentPath());
      record("super", node, ((JCTree) node).pos, e instanceof ExecutableElement ? (ExecutableElement) e : null,
          null, true, ", \"implicit\": true");
    }

    @Override
    public Void visitNewClass(NewClassTree node, Void p) {
      Element e = trees.getElement(getCurrentPath());
      long newPos = node.getEnclosingExpression() == null
          ? trees.getSourcePositions().getStartPosition(unit, node)
          : trees.getSourcePositions().getStartPosition(unit, node.getIdentifier());
      ExecutableElement ctor = e instanceof ExecutableElement ? (ExecutableElement) e : null;
      String extra = null;
      if (ctor != null && node.getClassBody() != null) {
        // new T(...) { ... }: javac names the anonymous class's constructor; the one that runs in
        // the sources is T's (same erased parameters), or Object's for an interface
        TypeElement anon = (TypeElement) ctor.getEnclosingElement();
        extra = ", \"anonymous\": true";
        ExecutableElement superCtor = null;
        TypeMirror sup = anon.getSuperclass();
        List<? extends TypeMirror> ifaces = anon.getInterfaces();
        if (ifaces.isEmpty() && sup.getKind() == TypeKind.DECLARED) {
          TypeElement st = (TypeElement) types.asElement(sup);
          String params = erasedParams(ctor);
          for (ExecutableElement c : ElementFilter.constructorsIn(st.getEnclosedElements())) {
            if (erasedParams(c).equals(params) || (st.getNestingKind() == NestingKind.MEMBER
                && !st.getModifiers().contains(Modifier.STATIC) && params.endsWith(erasedParams(c)))) {
              superCtor = c;
              break;
            }
          }
          if (superCtor == null && ElementFilter.constructorsIn(st.getEnclosedElements()).size() == 1) {
            superCtor = ElementFilter.constructorsIn(st.getEnclosedElements()).get(0);
          }
        } else if (!ifaces.isEmpty()) {
          superCtor = elements.getTypeElement("java.lang.Object").getEnclosedElements().stream()
              .filter(m -> m.getKind() == ElementKind.CONSTRUCTOR).map(m -> (ExecutableElement) m).findFirst()
              .orElse(null);
          extra += ", \"interface\": " + str(((TypeElement) types.asElement(ifaces.get(0))).getQualifiedName().toString());
        }
        ctor = superCtor;
      }
      Tree parent = getCurrentPath().getParentPath().getLeaf();
      Element parentElement = parent instanceof VariableTree ? trees.getElement(getCurrentPath().getParentPath()) : null;
      boolean enumConstant = parentElement != null && parentElement.getKind() == ElementKind.ENUM_CONSTANT;
      if (enumConstant) {
        newPos = ((JCTree) parent).pos; // the constant's name: `A(1)` runs the enum's constructor
      }
      record(enumConstant ? "enum_constant" : "new", node, newPos, ctor, null, false, extra);
      return super.visitNewClass(node, p);
    }

    @Override
    public Void visitMemberReference(MemberReferenceTree node, Void p) {
      Element e = trees.getElement(getCurrentPath());
      SourcePositions sp = trees.getSourcePositions();
      long end = sp.getEndPosition(unit, node);
      long namePos = end - node.getName().length();
      TypeMirror receiver = trees.getTypeMirror(new TreePath(getCurrentPath(), node.getQualifierExpression()));
      record("reference", node, namePos, e instanceof ExecutableElement ? (ExecutableElement) e : null,
          receiver, false, null);
      return super.visitMemberReference(node, p);
    }
  }
}
