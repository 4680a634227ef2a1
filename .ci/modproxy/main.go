// Command modproxy writes a Go module proxy, as files (GOPROXY=file://),
// holding modules of this repository at one version, from the working
// tree: what tagging them would publish. CI builds a consumer against it,
// with no replace directive, to prove that the modules install as the
// README says.
//
//	go run .ci/modproxy/main.go -out DIR -version v0.1.0 . promcollector ...
//
// Each argument is a module's directory. A module's zip holds its files,
// less those of the modules nested in it and of directories whose names
// start with "." or "_", which the go command ignores.
package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

func main() {
	out := flag.String("out", "", "the proxy's directory")
	version := flag.String("version", "", "the version every module gets, such as v0.1.0")
	flag.Parse()
	if *out == "" || !regexp.MustCompile(`^v\d+\.\d+\.\d+$`).MatchString(*version) || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: modproxy -out DIR -version vX.Y.Z module-dir...")
		os.Exit(2)
	}
	for _, dir := range flag.Args() {
		if err := write(*out, *version, dir); err != nil {
			fmt.Fprintln(os.Stderr, "modproxy:", err)
			os.Exit(1)
		}
	}
}

var moduleLine = regexp.MustCompile(`(?m)^module\s+(\S+)\s*$`)

// write adds the module in dir to the proxy in out at version.
func write(out, version, dir string) error {
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	m := moduleLine.FindSubmatch(mod)
	if m == nil {
		return fmt.Errorf("%s/go.mod: no module line", dir)
	}
	modPath := string(m[1])
	if strings.ToLower(modPath) != modPath {
		return fmt.Errorf("%s: upper case in the module path needs escaping, which this tool does not do", modPath)
	}
	vdir := filepath.Join(out, filepath.FromSlash(modPath), "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		return err
	}
	info, err := json.Marshal(map[string]string{"Version": version, "Time": time.Now().UTC().Format(time.RFC3339)})
	if err != nil {
		return err
	}
	var z bytes.Buffer
	if err := zipModule(&z, dir, modPath+"@"+version); err != nil {
		return err
	}
	for name, data := range map[string][]byte{
		version + ".info": info,
		version + ".mod":  mod,
		version + ".zip":  z.Bytes(),
		"list":            []byte(version + "\n"),
	} {
		if err := os.WriteFile(filepath.Join(vdir, name), data, 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("modproxy: %s@%s from %s\n", modPath, version, dir)
	return nil
}

// zipModule writes the module zip of the module in dir, its files under
// prefix/.
func zipModule(w *bytes.Buffer, dir, prefix string) error {
	zw := zip.NewWriter(w)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if rel == "." {
				return nil
			}
			if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir // a nested module
			}
			return nil
		}
		if !d.Type().IsRegular() || strings.HasPrefix(name, ".") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := zw.Create(path.Join(prefix, filepath.ToSlash(rel)))
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		return err
	})
	return errors.Join(err, zw.Close())
}
