package yarn

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Client talks to one ResourceManager's REST API.
type Client struct {
	// URL is the ResourceManager's web address, e.g. http://rm:8088.
	URL string
	// User is sent as user.name (Hadoop's simple authentication): the
	// application's user. Empty sends none (the web server's static user).
	User string
	// HTTP is the client used; nil means one with a 30 s timeout.
	HTTP *http.Client
}

// Error is an error the ResourceManager returned: the HTTP status and its
// RemoteException (or the body's first line).
type Error struct {
	Status    int
	Exception string
	Message   string
}

func (e *Error) Error() string {
	if e.Exception != "" {
		return fmt.Sprintf("HTTP %d: %s: %s", e.Status, e.Exception, e.Message)
	}
	return fmt.Sprintf("HTTP %d: %s", e.Status, e.Message)
}

// ErrNotFound is wrapped by the Error of a 404 (an unknown application).
var ErrNotFound = errors.New("not found")

func (e *Error) Unwrap() error {
	if e.Status == http.StatusNotFound {
		return ErrNotFound
	}
	return nil
}

func (c *Client) http() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return &http.Client{Timeout: 30 * time.Second}
}

// do sends a request to path (below URL) with body as JSON (nil: none)
// and decodes a JSON answer into out (nil: discard). want are the accepted
// status codes.
func (c *Client) do(ctx context.Context, method, path string, body, out any, want ...int) error {
	u, err := url.Parse(strings.TrimSuffix(c.URL, "/") + path)
	if err != nil {
		return fmt.Errorf("resourcemanager URL %q: %w", c.URL, err)
	}
	if c.User != "" {
		q := u.Query()
		q.Set("user.name", c.User)
		u.RawQuery = q.Encode()
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http().Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, redactURL(u), err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, redactURL(u), err)
	}
	ok := false
	for _, w := range want {
		ok = ok || resp.StatusCode == w
	}
	if !ok {
		return fmt.Errorf("%s %s: %w", method, redactURL(u), decodeError(resp.StatusCode, data))
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s %s: decode the answer: %w", method, redactURL(u), err)
	}
	return nil
}

// redactURL is u without its query (user.name is not a secret, but keep
// the messages short).
func redactURL(u *url.URL) string {
	v := *u
	v.RawQuery = ""
	return v.String()
}

func decodeError(status int, data []byte) *Error {
	var re struct {
		RemoteException struct {
			Exception string `json:"exception"`
			Message   string `json:"message"`
		} `json:"RemoteException"`
	}
	if json.Unmarshal(data, &re) == nil && re.RemoteException.Exception != "" {
		return &Error{Status: status, Exception: re.RemoteException.Exception, Message: re.RemoteException.Message}
	}
	msg, _, _ := strings.Cut(strings.TrimSpace(string(data)), "\n")
	if len(msg) > 300 {
		msg = msg[:300] + "..."
	}
	if msg == "" {
		msg = http.StatusText(status)
	}
	return &Error{Status: status, Message: msg}
}

// Resource is an amount of memory (MiB) and virtual cores.
type Resource struct {
	MemoryMB int64 `json:"memory"`
	VCores   int64 `json:"vCores"`
}

// NewApplication asks for an application id; it also returns the largest
// container the cluster grants.
func (c *Client) NewApplication(ctx context.Context) (string, Resource, error) {
	var r struct {
		ID  string   `json:"application-id"`
		Max Resource `json:"maximum-resource-capability"`
	}
	if err := c.do(ctx, http.MethodPost, "/ws/v1/cluster/apps/new-application", nil, &r, http.StatusOK); err != nil {
		return "", Resource{}, fmt.Errorf("new application: %w", err)
	}
	if r.ID == "" {
		return "", Resource{}, errors.New("new application: the ResourceManager returned no application-id")
	}
	return r.ID, r.Max, nil
}

// Submit submits an application (its ID from NewApplication).
func (c *Client) Submit(ctx context.Context, s *Submission) error {
	if err := c.do(ctx, http.MethodPost, "/ws/v1/cluster/apps", s, nil, http.StatusAccepted, http.StatusOK); err != nil {
		return fmt.Errorf("submit %s: %w", s.ID, err)
	}
	return nil
}

// App is what the ResourceManager says about an application.
type App struct {
	ID                string  `json:"id"`
	User              string  `json:"user"`
	Name              string  `json:"name"`
	Queue             string  `json:"queue"`
	State             string  `json:"state"`       // NEW ... ACCEPTED, RUNNING, FINISHED, FAILED, KILLED
	FinalStatus       string  `json:"finalStatus"` // UNDEFINED, SUCCEEDED, FAILED, KILLED
	Progress          float64 `json:"progress"`
	Diagnostics       string  `json:"diagnostics"`
	TrackingURL       string  `json:"trackingUrl"`
	StartedTime       int64   `json:"startedTime"`
	FinishedTime      int64   `json:"finishedTime"`
	ElapsedTime       int64   `json:"elapsedTime"`
	AMContainerLogs   string  `json:"amContainerLogs"`
	AMHostHTTPAddress string  `json:"amHostHttpAddress"`
	AllocatedMB       int64   `json:"allocatedMB"`
	AllocatedVCores   int64   `json:"allocatedVCores"`
	RunningContainers int     `json:"runningContainers"`
}

// Done reports whether the application has ended (FINISHED, FAILED or
// KILLED).
func (a *App) Done() bool {
	switch a.State {
	case "FINISHED", "FAILED", "KILLED":
		return true
	}
	return false
}

// App returns the application's state.
func (c *Client) App(ctx context.Context, id string) (*App, error) {
	var r struct {
		App *App `json:"app"`
	}
	if err := c.do(ctx, http.MethodGet, "/ws/v1/cluster/apps/"+url.PathEscape(id), nil, &r, http.StatusOK); err != nil {
		return nil, fmt.Errorf("application %s: %w", id, err)
	}
	if r.App == nil {
		return nil, fmt.Errorf("application %s: the ResourceManager's answer has no app", id)
	}
	return r.App, nil
}

// Kill asks the ResourceManager to kill the application; killing one
// that has ended is not an error.
func (c *Client) Kill(ctx context.Context, id string) error {
	body := map[string]string{"state": "KILLED"}
	err := c.do(ctx, http.MethodPut, "/ws/v1/cluster/apps/"+url.PathEscape(id)+"/state", body, nil, http.StatusOK, http.StatusAccepted)
	if err != nil {
		if a, aerr := c.App(ctx, id); aerr == nil && a.Done() {
			return nil
		}
		return fmt.Errorf("kill %s: %w", id, err)
	}
	return nil
}

// Signal sends a command to a running container through the
// ResourceManager: OUTPUT_THREAD_DUMP, GRACEFUL_SHUTDOWN or
// FORCEFUL_SHUTDOWN (the NodeManager kills it).
func (c *Client) Signal(ctx context.Context, containerID, command string) error {
	path := "/ws/v1/cluster/containers/" + url.PathEscape(containerID) + "/signal/" + url.PathEscape(command)
	if err := c.do(ctx, http.MethodPost, path, nil, nil, http.StatusOK); err != nil {
		return fmt.Errorf("signal %s to %s: %w", command, containerID, err)
	}
	return nil
}

// Conf returns the ResourceManager's effective configuration (its /conf
// page: site files over the defaults).
func (c *Client) Conf(ctx context.Context) (map[string]string, error) {
	u := strings.TrimSuffix(c.URL, "/") + "/conf"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("resourcemanager URL %q: %w", c.URL, err)
	}
	req.Header.Set("Accept", "application/xml")
	resp, err := c.http().Do(req)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", u, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", u, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %w", u, decodeError(resp.StatusCode, data))
	}
	conf, err := ParseConf(data)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", u, err)
	}
	return conf, nil
}

// ParseConf decodes a Hadoop configuration file (or the /conf page) into
// name -> value; a later property wins.
func ParseConf(data []byte) (map[string]string, error) {
	var doc struct {
		Props []struct {
			Name  string `xml:"name"`
			Value string `xml:"value"`
		} `xml:"property"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("Hadoop configuration XML: %w", err)
	}
	out := make(map[string]string, len(doc.Props))
	for _, p := range doc.Props {
		out[strings.TrimSpace(p.Name)] = strings.TrimSpace(p.Value)
	}
	return out, nil
}
