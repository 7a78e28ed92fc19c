"""What is known of types outside the repository without reading them: the methods a type of
the standard library has through an embedded, unexported type (the type checker names the
method by the type that declares it: `t.Errorf` on a `*testing.T` is `testing.common.Errorf`),
the predeclared interface `error`, the types the standard library's common constructors
return (`f, err := os.Create(p)`: `f.Close()` is `os.File.Close`), and the standard library's
named types code converts to (`http.HandlerFunc(f)` is a conversion, not a call)."""

from __future__ import annotations

__all__ = [
    "EXTERNAL_INTERFACES", "PREDECLARED_INTERFACES", "external_conversion", "external_method",
    "external_result",
]  # fmt: skip

PREDECLARED_INTERFACES = frozenset({"error"})
"""Predeclared interface types: an `error` value's `Error()` is `error.Error`."""

# interfaces of the standard library that the repository's types commonly satisfy, with their
# whole method sets (method -> parameters, as `dispatch` compares them): a call through one of
# them (`w.Write(p)` on an `io.Writer`) may run the repository's types' methods
EXTERNAL_INTERFACES: dict[str, dict[str, int]] = {
    "error": {"Error": 0},
    "fmt.Stringer": {"String": 0},
    "fmt.GoStringer": {"GoString": 0},
    "io.Reader": {"Read": 1},
    "io.Writer": {"Write": 1},
    "io.Closer": {"Close": 0},
    "io.ReadCloser": {"Read": 1, "Close": 0},
    "io.WriteCloser": {"Write": 1, "Close": 0},
    "io.ReadWriter": {"Read": 1, "Write": 1},
    "io.ReadWriteCloser": {"Read": 1, "Write": 1, "Close": 0},
    "io.StringWriter": {"WriteString": 1},
    "io.ReaderFrom": {"ReadFrom": 1},
    "io.WriterTo": {"WriteTo": 1},
    "net/http.Handler": {"ServeHTTP": 2},
    "net/http.ResponseWriter": {"Header": 0, "Write": 1, "WriteHeader": 1},
    "net/http.Flusher": {"Flush": 0},
    "net/http.Hijacker": {"Hijack": 0},
    "net/http.RoundTripper": {"RoundTrip": 1},
    "net/http.FileSystem": {"Open": 1},
    "io/fs.FS": {"Open": 1},
    "sort.Interface": {"Len": 0, "Less": 2, "Swap": 2},
    "encoding.TextMarshaler": {"MarshalText": 0},
    "encoding.TextUnmarshaler": {"UnmarshalText": 1},
    "encoding/json.Marshaler": {"MarshalJSON": 0},
    "encoding/json.Unmarshaler": {"UnmarshalJSON": 1},
    "flag.Value": {"String": 0, "Set": 1},
    "context.Context": {"Deadline": 0, "Done": 0, "Err": 0, "Value": 1},
}

_TESTING_COMMON = frozenset(
    {
        "Cleanup", "Error", "Errorf", "Fail", "FailNow", "Failed", "Fatal", "Fatalf", "Helper",
        "Log", "Logf", "Name", "Skip", "SkipNow", "Skipf", "Skipped", "TempDir",
    }
)  # fmt: skip
# (type, method) -> the type that declares the method, for methods promoted from an
# embedded type of the same package
_PROMOTED: dict[tuple[str, str], str] = {
    (owner, method): "testing.common"
    for owner in ("testing.T", "testing.B", "testing.F")
    for method in _TESTING_COMMON
}


def external_method(type_name: str, method: str) -> str:
    """The external name of `method` called on a value of the external type `type_name`."""
    return f"{_PROMOTED.get((type_name, method), type_name)}.{method}"


# function (import path + name) -> the named type of its first result (import path + name)
_RESULTS: dict[str, str] = {
    "os.Create": "os.File", "os.Open": "os.File", "os.OpenFile": "os.File",
    "os.CreateTemp": "os.File", "os/exec.Command": "os/exec.Cmd",
    "os/exec.CommandContext": "os/exec.Cmd", "reflect.ValueOf": "reflect.Value",
    "reflect.Indirect": "reflect.Value", "reflect.New": "reflect.Value",
    "reflect.TypeOf": "reflect.Type", "text/template.New": "text/template.Template",
    "text/template.Must": "text/template.Template", "html/template.New": "html/template.Template",
    "html/template.Must": "html/template.Template", "bytes.NewBuffer": "bytes.Buffer",
    "bytes.NewBufferString": "bytes.Buffer", "bytes.NewReader": "bytes.Reader",
    "strings.NewReader": "strings.Reader", "strings.NewReplacer": "strings.Replacer",
    "bufio.NewReader": "bufio.Reader", "bufio.NewWriter": "bufio.Writer",
    "bufio.NewScanner": "bufio.Scanner", "time.Now": "time.Time", "time.Unix": "time.Time",
    "time.Date": "time.Time", "time.Parse": "time.Time", "time.NewTimer": "time.Timer",
    "time.NewTicker": "time.Ticker", "errors.New": "error", "fmt.Errorf": "error",
    "regexp.MustCompile": "regexp.Regexp", "regexp.Compile": "regexp.Regexp",
    "encoding/json.NewEncoder": "encoding/json.Encoder",
    "encoding/json.NewDecoder": "encoding/json.Decoder",
    "net/http.NewRequest": "net/http.Request",
    "net/http.NewRequestWithContext": "net/http.Request",
    "net/http/httptest.NewRecorder": "net/http/httptest.ResponseRecorder",
    "net/http/httptest.NewServer": "net/http/httptest.Server",
    "net/url.Parse": "net/url.URL", "log.New": "log.Logger",
    "context.Background": "context.Context", "context.TODO": "context.Context",
    "context.WithCancel": "context.Context", "context.WithTimeout": "context.Context",
    "context.WithDeadline": "context.Context", "context.WithValue": "context.Context",
}  # fmt: skip


# standard-library types (import path + name) written as conversions `T(x)`: they look like
# calls of a function of the package, and the package is not read
_TYPES = frozenset(
    {
        "net/http.HandlerFunc", "net/http.Header", "net/http.Dir", "time.Duration",
        "time.Month", "time.Weekday", "os.FileMode", "io/fs.FileMode", "encoding/json.RawMessage",
        "html/template.HTML", "html/template.JS", "html/template.URL", "html/template.CSS",
        "html/template.HTMLAttr", "sort.StringSlice", "sort.IntSlice", "sort.Float64Slice",
        "net.IP", "net.IPMask", "reflect.Kind", "log/slog.Level", "sync/atomic.Value",
    }
)  # fmt: skip


def external_conversion(name: str) -> bool:
    """Whether `path.Name(x)` of the standard library converts to a type (the table's)."""
    return name in _TYPES


def external_result(function: str) -> str | None:
    """The external type a standard library function's first result is, when the table knows
    it (`os.Create` -> `os.File`; `error` for `errors.New`)."""
    return _RESULTS.get(function)
