package yarn

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// Submission is the body of the REST API's submit call (the
// ApplicationSubmissionContextInfo of the ResourceManager).
type Submission struct {
	ID             string        `json:"application-id"`
	Name           string        `json:"application-name"`
	Queue          string        `json:"queue,omitempty"`
	Priority       int           `json:"priority"`
	AM             ContainerSpec `json:"am-container-spec"`
	UnmanagedAM    bool          `json:"unmanaged-AM"`
	MaxAttempts    int           `json:"max-app-attempts"`
	Resource       Resource      `json:"resource"`
	Type           string        `json:"application-type"`
	KeepContainers bool          `json:"keep-containers-across-application-attempts"`
	Tags           *Tags         `json:"application-tags,omitempty"`
}

// Tags are application tags.
type Tags struct {
	Tag []string `json:"tag"`
}

// ContainerSpec is a container launch context: what to localize, the
// environment and the command.
type ContainerSpec struct {
	LocalResources Entries[LocalResource] `json:"local-resources"`
	Environment    Entries[string]        `json:"environment"`
	Commands       struct {
		Command string `json:"command"`
	} `json:"commands"`
}

// Entries is the REST API's spelling of a map: {"entry": [{"key", "value"}]}.
type Entries[V any] struct {
	Entry []Entry[V] `json:"entry"`
}

// Entry is one key and value of [Entries].
type Entry[V any] struct {
	Key   string `json:"key"`
	Value V      `json:"value"`
}

// LocalResource is a file the NodeManager copies into a container's
// working directory before it starts: its URL (hdfs://nn:port/path), size
// and modification time (ms), which must match the file's.
type LocalResource struct {
	URL        string `json:"resource"`
	Type       string `json:"type"`       // FILE, ARCHIVE, PATTERN
	Visibility string `json:"visibility"` // APPLICATION, PRIVATE, PUBLIC
	Size       int64  `json:"size"`
	Timestamp  int64  `json:"timestamp"`
}

// File is an application-visible FILE resource.
func File(url string, size, mtimeMillis int64) LocalResource {
	return LocalResource{URL: url, Type: "FILE", Visibility: "APPLICATION", Size: size, Timestamp: mtimeMillis}
}

// DistributedShellMain is the application master's class, in
// hadoop-yarn-applications-distributedshell.
const DistributedShellMain = "org.apache.hadoop.yarn.applications.distributedshell.ApplicationMaster"

// ShellCommandsFile is the name of the application master's local
// resource that holds the command its containers run ([WriteUTF] of it).
const ShellCommandsFile = "shellCommands"

// DistributedShell describes an application of Hadoop's DistributedShell
// application master: Containers containers, each running the command
// in its ShellCommandsFile (with YARN_SHELL_ID=1..Containers set) and
// holding the Localized files.
type DistributedShell struct {
	Name, Queue, Type string
	Tags              []string
	// AMMemoryMB and AMVCores size the application master's container;
	// AMJavaOpts are its JVM options (say -Xmx).
	AMMemoryMB, AMVCores int64
	AMJavaOpts           []string
	// Classpath is the application master's CLASSPATH after ./* (the
	// container's own files): the cluster's yarn.application.classpath
	// (see [AppClasspath]).
	Classpath []string
	// ShellCommands is the staged file with the containers' command;
	// AMFiles are further files for the application master (say
	// AppMaster.jar when the cluster's classpath lacks DistributedShell).
	ShellCommands LocalResource
	AMFiles       map[string]LocalResource
	// HomeDir and StagingName place the Localized files: the application
	// master localizes HomeDir/StagingName/<application id>/<name> into
	// every container as <name>, and deletes that directory when it ends
	// (see [StagingDir]).
	HomeDir, StagingName string
	Localized            []string
	// Containers, ContainerMemoryMB and ContainerVCores are the workers;
	// Env is set in each of them.
	Containers                         int
	ContainerMemoryMB, ContainerVCores int64
	Priority                           int
	Env                                map[string]string
}

// StagingDir is where the application master looks for the files to
// localize: home/name/appID.
func StagingDir(home, name, appID string) string {
	return path.Join(home, name, appID)
}

// safeArg is what may go into the application master's command line
// unquoted: the NodeManager runs it with bash -c "...".
var safeArg = regexp.MustCompile(`^[A-Za-z0-9_./:=@%+,-]+$`)

// Submission builds the submission of the application with id appID.
func (d *DistributedShell) Submission(appID string) (*Submission, error) {
	var bad []string
	check := func(what, v string) {
		if !safeArg.MatchString(v) {
			bad = append(bad, fmt.Sprintf("%s %q (allowed: letters, digits and _./:=@%%+,-)", what, v))
		}
	}
	check("application id", appID)
	check("home directory", d.HomeDir)
	check("staging name", d.StagingName)
	for _, f := range d.Localized {
		check("localized file", f)
		if strings.Contains(f, ",") || strings.Contains(f, "/") {
			bad = append(bad, fmt.Sprintf("localized file %q: a plain file name, without , or /", f))
		}
	}
	for _, o := range d.AMJavaOpts {
		check("application master JVM option", o)
	}
	for k, v := range d.Env {
		check("container environment", k+"="+v)
	}
	if d.Containers < 1 {
		bad = append(bad, fmt.Sprintf("containers %d, want at least 1", d.Containers))
	}
	if len(bad) > 0 {
		return nil, errors.New("distributed shell: " + strings.Join(bad, "; "))
	}
	args := []string{"{{JAVA_HOME}}/bin/java"}
	args = append(args, d.AMJavaOpts...)
	args = append(args, DistributedShellMain,
		"--container_memory", strconv.FormatInt(d.ContainerMemoryMB, 10),
		"--container_vcores", strconv.FormatInt(d.ContainerVCores, 10),
		"--num_containers", strconv.Itoa(d.Containers),
		"--priority", strconv.Itoa(d.Priority),
		"--appname", d.StagingName, "--homedir", d.HomeDir)
	if len(d.Localized) > 0 {
		args = append(args, "--localized_files", strings.Join(d.Localized, ","))
	}
	for _, k := range sortedKeys(d.Env) {
		args = append(args, "--shell_env", k+"="+d.Env[k])
	}
	args = append(args, "1><LOG_DIR>/AppMaster.stdout", "2><LOG_DIR>/AppMaster.stderr")
	s := &Submission{
		ID: appID, Name: d.Name, Queue: d.Queue, Priority: d.Priority, MaxAttempts: 1,
		Resource: Resource{MemoryMB: d.AMMemoryMB, VCores: d.AMVCores}, Type: d.Type,
	}
	if len(d.Tags) > 0 {
		s.Tags = &Tags{Tag: d.Tags}
	}
	s.AM.Commands.Command = strings.Join(args, " ")
	s.AM.LocalResources.Entry = append(s.AM.LocalResources.Entry, Entry[LocalResource]{ShellCommandsFile, d.ShellCommands})
	for _, k := range sortedKeys(d.AMFiles) {
		s.AM.LocalResources.Entry = append(s.AM.LocalResources.Entry, Entry[LocalResource]{k, d.AMFiles[k]})
	}
	cp := append([]string{"{{CLASSPATH}}", "./*"}, d.Classpath...)
	s.AM.Environment.Entry = []Entry[string]{{"CLASSPATH", strings.Join(cp, "<CPS>")}}
	return s, nil
}

// defaultAppClasspath is YARN's cross-platform default
// yarn.application.classpath (used when the cluster leaves it empty).
var defaultAppClasspath = []string{
	"{{HADOOP_CONF_DIR}}",
	"{{HADOOP_COMMON_HOME}}/share/hadoop/common/*",
	"{{HADOOP_COMMON_HOME}}/share/hadoop/common/lib/*",
	"{{HADOOP_HDFS_HOME}}/share/hadoop/hdfs/*",
	"{{HADOOP_HDFS_HOME}}/share/hadoop/hdfs/lib/*",
	"{{HADOOP_YARN_HOME}}/share/hadoop/yarn/*",
	"{{HADOOP_YARN_HOME}}/share/hadoop/yarn/lib/*",
}

// AppClasspath is the cluster's yarn.application.classpath from its
// configuration (comma-separated; entries may name the NodeManager's
// environment, $HADOOP_YARN_HOME), or YARN's default when it is empty.
func AppClasspath(conf map[string]string) []string {
	var out []string
	for _, e := range strings.Split(conf["yarn.application.classpath"], ",") {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return append([]string(nil), defaultAppClasspath...)
	}
	return out
}

// WriteUTF encodes s as Java's DataOutputStream.writeUTF does (which the
// application master's readUTF reads): a big-endian 16-bit length, then
// modified UTF-8 (NUL as C0 80, characters beyond the BMP as two 3-byte
// surrogates). At most 65535 bytes.
func WriteUTF(s string) ([]byte, error) {
	var b []byte
	for _, c := range utf16.Encode([]rune(s)) {
		switch {
		case c >= 0x0001 && c <= 0x007F:
			b = append(b, byte(c))
		case c <= 0x07FF:
			b = append(b, 0xC0|byte(c>>6), 0x80|byte(c&0x3F))
		default:
			b = append(b, 0xE0|byte(c>>12), 0x80|byte((c>>6)&0x3F), 0x80|byte(c&0x3F))
		}
	}
	if len(b) > 0xFFFF {
		return nil, fmt.Errorf("writeUTF: %d bytes, at most 65535", len(b))
	}
	return append(binary.BigEndian.AppendUint16(nil, uint16(len(b))), b...), nil
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
