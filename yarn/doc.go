// Package yarn submits and follows YARN applications through the
// ResourceManager's REST API (/ws/v1/cluster), and builds the submission
// of Hadoop's DistributedShell application master, which runs one shell
// command in each of N containers: what `gobench yarn` uses to start N
// gobench clients as one application.
//
// Why DistributedShell and the REST API: an application master must speak
// Hadoop RPC with token (SASL DIGEST-MD5) authentication to the
// ResourceManager and NodeManagers, which is a large protocol surface to
// reimplement in Go; DistributedShell is Hadoop's own, ships in every
// Hadoop distribution (share/hadoop/yarn, on the default
// yarn.application.classpath) and on Maven Central, and already does what
// gobench needs: N containers with one command, each told its number in
// YARN_SHELL_ID (1..N), the files to localize, and a final status that
// says whether every container exited 0. The submitting side is then plain
// HTTP and JSON, the ResourceManager's documented REST API.
//
// What it covers: new-application, submit (am-container-spec with local
// resources, environment and command), application state and kill, the
// ResourceManager's effective configuration (/conf, for
// yarn.application.classpath and fs.defaultFS), and signalling a container.
// Authentication is Hadoop's simple/pseudo scheme (user.name); clusters
// with Kerberos (SPNEGO) are not supported.
//
// It may import only the standard library.
package yarn
