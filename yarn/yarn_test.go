package yarn

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Java's DataOutputStream.writeUTF, byte for byte: "a" is 00 01 61; NUL is
// C0 80; é (U+00E9) C3 A9; € (U+20AC) E2 82 AC; 𝄞 (U+1D11E) is the
// surrogates D834 DD1E, three bytes each.
func TestWriteUTFIsJavas(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []byte
	}{
		{"", []byte{0, 0}},
		{"a", []byte{0, 1, 'a'}},
		{"\x00", []byte{0, 2, 0xC0, 0x80}},
		{"é€", []byte{0, 5, 0xC3, 0xA9, 0xE2, 0x82, 0xAC}},
		{"𝄞", []byte{0, 6, 0xED, 0xA0, 0xB4, 0xED, 0xB4, 0x9E}},
	} {
		got, err := WriteUTF(c.in)
		if err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("WriteUTF(%q) = % x (%v), want % x", c.in, got, err, c.want)
		}
	}
	if _, err := WriteUTF(strings.Repeat("x", 65536)); err == nil {
		t.Error("WriteUTF of 65536 bytes: no error")
	}
}

func TestDistributedShellSubmission(t *testing.T) {
	d := &DistributedShell{
		Name: "gobench run", Queue: "q", Type: "GOBENCH", Tags: []string{"gobench"},
		AMMemoryMB: 512, AMVCores: 1, AMJavaOpts: []string{"-Xmx384m"},
		Classpath:     []string{"$HADOOP_CONF_DIR", "/opt/yarn/*"},
		ShellCommands: File("hdfs://nn:9000/s/shellCommands", 10, 1234),
		HomeDir:       "/user/u", StagingName: ".gobench-staging", Localized: []string{"gobench", "job.json"},
		Containers: 3, ContainerMemoryMB: 1024, ContainerVCores: 2, Env: map[string]string{"B": "2", "A": "1"},
	}
	s, err := d.Submission("application_1_0001")
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	json.Unmarshal(b, &got)
	am := got["am-container-spec"].(map[string]any)
	cmd := am["commands"].(map[string]any)["command"].(string)
	wantCmd := "{{JAVA_HOME}}/bin/java -Xmx384m " + DistributedShellMain + " --container_memory 1024 --container_vcores 2 --num_containers 3 --priority 0 --appname .gobench-staging --homedir /user/u --localized_files gobench,job.json --shell_env A=1 --shell_env B=2 1><LOG_DIR>/AppMaster.stdout 2><LOG_DIR>/AppMaster.stderr"
	if cmd != wantCmd {
		t.Errorf("command\n%s\nwant\n%s", cmd, wantCmd)
	}
	for _, want := range []string{
		`"application-id":"application_1_0001"`, `"max-app-attempts":1`, `"resource":{"memory":512,"vCores":1}`,
		`"local-resources":{"entry":[{"key":"shellCommands","value":{"resource":"hdfs://nn:9000/s/shellCommands","type":"FILE","visibility":"APPLICATION","size":10,"timestamp":1234}}]}`,
		`"environment":{"entry":[{"key":"CLASSPATH","value":"{{CLASSPATH}}\u003cCPS\u003e./*\u003cCPS\u003e$HADOOP_CONF_DIR\u003cCPS\u003e/opt/yarn/*"}]}`,
		`"application-tags":{"tag":["gobench"]}`, `"queue":"q"`, `"application-type":"GOBENCH"`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("submission lacks %s:\n%s", want, b)
		}
	}
	if StagingDir("/user/u", ".gobench-staging", "application_1_0001") != "/user/u/.gobench-staging/application_1_0001" {
		t.Error("StagingDir")
	}
}

// What would break the NodeManager's bash -c "..." is refused, naming it.
func TestDistributedShellRefusesUnsafeArguments(t *testing.T) {
	for _, c := range []struct {
		d    DistributedShell
		want string
	}{
		{DistributedShell{HomeDir: "/user/a b", StagingName: "s", Containers: 1}, `home directory "/user/a b"`},
		{DistributedShell{HomeDir: "/h", StagingName: "s", Containers: 1, Localized: []string{"a,b"}}, `localized file "a,b": a plain file name`},
		{DistributedShell{HomeDir: "/h", StagingName: "s", Containers: 1, Env: map[string]string{"X": `"$(rm)"`}}, `container environment`},
		{DistributedShell{HomeDir: "/h", StagingName: "s"}, "containers 0, want at least 1"},
	} {
		if _, err := c.d.Submission("application_1_0001"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one naming %s", err, c.want)
		}
	}
}

func TestAppClasspath(t *testing.T) {
	got := AppClasspath(map[string]string{"yarn.application.classpath": " $HADOOP_CONF_DIR, /a/*,,/b "})
	if strings.Join(got, "|") != "$HADOOP_CONF_DIR|/a/*|/b" {
		t.Errorf("AppClasspath = %q", got)
	}
	if got := AppClasspath(nil); len(got) != 7 || got[0] != "{{HADOOP_CONF_DIR}}" {
		t.Errorf("default AppClasspath = %q", got)
	}
}

func TestParseConf(t *testing.T) {
	c, err := ParseConf([]byte(`<?xml version="1.0"?><configuration><property><name>fs.defaultFS</name><value> hdfs://nn:9000 </value><source>core-site.xml</source></property><property><name>a</name><value>1</value></property><property><name>a</name><value>2</value></property></configuration>`))
	if err != nil || c["fs.defaultFS"] != "hdfs://nn:9000" || c["a"] != "2" {
		t.Errorf("ParseConf = %v, %v", c, err)
	}
	if _, err := ParseConf([]byte("<configuration><property>")); err == nil {
		t.Error("ParseConf of broken XML: no error")
	}
}

// The ResourceManager's RemoteException becomes the error's text; a 404 is
// ErrNotFound; user.name is sent. (A fake server for the error paths only:
// the real ResourceManager is exercised by cmd/gobench's YARN test.)
func TestClientErrors(t *testing.T) {
	var user string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user = r.URL.Query().Get("user.name")
		switch {
		case strings.HasSuffix(r.URL.Path, "/new-application"):
			w.WriteHeader(http.StatusForbidden)
			w.Write([]byte(`{"RemoteException":{"exception":"AuthorizationException","message":"Unable to obtain user name, user not authenticated"}}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	c := &Client{URL: srv.URL, User: "gobench"}
	_, _, err := c.NewApplication(context.Background())
	if err == nil || !strings.Contains(err.Error(), "HTTP 403: AuthorizationException: Unable to obtain user name") || user != "gobench" {
		t.Errorf("NewApplication error %v (user.name %q)", err, user)
	}
	if _, err := c.App(context.Background(), "application_1_0001"); !errors.Is(err, ErrNotFound) {
		t.Errorf("App of an unknown id: %v, want ErrNotFound", err)
	}
}
