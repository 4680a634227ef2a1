package promcollector_test

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
)

const dashboardFile = "dashboards/poolkit.json"

// metricToken matches a metric name of poolkit's in a PromQL expression.
var metricToken = regexp.MustCompile(`poolkit_[A-Za-z0-9_]*`)

// TestDashboard checks that every metric the Grafana dashboard queries is
// one the collector publishes (a histogram through its _bucket, _sum or
// _count series), that every metric the collector publishes is on the
// dashboard, and that every panel reads the dashboard's data source.
func TestDashboard(t *testing.T) {
	raw, err := os.ReadFile(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Templating struct {
			List []struct {
				Name, Type string
				Query      json.RawMessage
			}
		}
		Panels []panel
	}
	if err := json.Unmarshal(raw, &dash); err != nil {
		t.Fatal(err)
	}

	// The published families and their types: what a registry gathers from
	// a collector watching one of each kind, checked against Describe by
	// the pedantic registry.
	types := map[string]dto.MetricType{}
	for name, mf := range gather(t, watchAll(t)) {
		types[name] = mf.GetType()
	}

	vars := map[string]string{}
	var exprs []string
	for _, v := range dash.Templating.List {
		vars[v.Name] = v.Type
		if v.Type == "query" {
			var q struct{ Query string }
			if err := json.Unmarshal(v.Query, &q); err != nil {
				t.Errorf("variable %s: query: %v", v.Name, err)
			}
			exprs = append(exprs, q.Query)
		}
	}
	if vars["DS_PROMETHEUS"] != "datasource" || vars["pool"] != "query" {
		t.Errorf("template variables %v, want a datasource DS_PROMETHEUS and a query pool", vars)
	}

	var walk func(ps []panel)
	walk = func(ps []panel) {
		for _, p := range ps {
			walk(p.Panels)
			if p.Type == "row" {
				continue
			}
			if len(p.Targets) == 0 {
				t.Errorf("panel %q has no target", p.Title)
			}
			if p.Datasource.UID != "${DS_PROMETHEUS}" {
				t.Errorf("panel %q reads data source %q", p.Title, p.Datasource.UID)
			}
			for _, tg := range p.Targets {
				if tg.Datasource.UID != "${DS_PROMETHEUS}" {
					t.Errorf("panel %q, target %s reads data source %q", p.Title, tg.RefID, tg.Datasource.UID)
				}
				if !metricToken.MatchString(tg.Expr) {
					t.Errorf("panel %q, target %s queries no poolkit metric: %s", p.Title, tg.RefID, tg.Expr)
				}
				if strings.Contains(tg.Expr, "_bucket") && !strings.Contains(tg.Expr, "le)") {
					t.Errorf("panel %q, target %s: a quantile must keep le: %s", p.Title, tg.RefID, tg.Expr)
				}
				exprs = append(exprs, tg.Expr)
			}
		}
	}
	walk(dash.Panels)

	used := map[string]bool{}
	for _, expr := range exprs {
		for _, tok := range metricToken.FindAllString(expr, -1) {
			name := tok
			for _, suffix := range []string{"_bucket", "_sum", "_count"} {
				if base, ok := strings.CutSuffix(tok, suffix); ok && types[base] == dto.MetricType_HISTOGRAM {
					name = base
				}
			}
			typ, ok := types[name]
			switch {
			case !ok:
				t.Errorf("%s is not a metric the collector publishes, in %s", tok, expr)
			case typ == dto.MetricType_HISTOGRAM && name == tok:
				t.Errorf("%s is a histogram: query its _bucket, _sum or _count, in %s", tok, expr)
			}
			used[name] = true
		}
	}
	if len(used) == 0 {
		t.Fatal("the dashboard queries no poolkit metric")
	}
	var missing []string
	for name := range types {
		if !used[name] {
			missing = append(missing, name)
		}
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		t.Errorf("not on the dashboard: %s", strings.Join(missing, ", "))
	}
}

type panel struct {
	Type, Title string
	Datasource  struct{ UID string }
	Targets     []struct {
		RefID      string
		Expr       string
		Datasource struct{ UID string }
	}
	Panels []panel // a row's collapsed panels
}
