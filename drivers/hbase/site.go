package hbase

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// siteConfig holds what the driver takes from hbase-site.xml.
type siteConfig struct {
	quorum     string            // hbase.zookeeper.quorum
	clientPort string            // hbase.zookeeper.property.clientPort
	parent     string            // zookeeper.znode.parent
	all        map[string]string // every property, for the security settings
}

type siteXML struct {
	Properties []struct {
		Name  string `xml:"name"`
		Value string `xml:"value"`
	} `xml:"property"`
}

// parseSite reads Hadoop-style configuration XML.
func parseSite(data []byte) (siteConfig, error) {
	var x siteXML
	if err := xml.Unmarshal(data, &x); err != nil {
		return siteConfig{}, err
	}
	s := siteConfig{all: make(map[string]string)}
	for _, p := range x.Properties {
		v := strings.TrimSpace(p.Value)
		s.all[strings.TrimSpace(p.Name)] = v
		switch strings.TrimSpace(p.Name) {
		case "hbase.zookeeper.quorum":
			s.quorum = v
		case "hbase.zookeeper.property.clientPort":
			s.clientPort = v
		case "zookeeper.znode.parent":
			s.parent = v
		}
	}
	return s, nil
}

// readSite reads hbase-site.xml from dir, or else from the first directory
// entry of the ':'-separated classpath cp that holds one. A dir without the
// file is an error; a classpath without one yields an empty config.
func readSite(dir, cp string) (siteConfig, error) {
	if dir != "" {
		return readSiteFile(filepath.Join(dir, "hbase-site.xml"))
	}
	for _, e := range filepath.SplitList(cp) {
		if e == "" || strings.HasSuffix(e, ".jar") || strings.HasSuffix(e, "*") {
			continue
		}
		path := filepath.Join(e, "hbase-site.xml")
		s, err := readSiteFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		return s, err
	}
	return siteConfig{}, nil
}

func readSiteFile(path string) (siteConfig, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return siteConfig{}, fmt.Errorf("read %w", err)
	}
	s, err := parseSite(data)
	if err != nil {
		return siteConfig{}, fmt.Errorf("parse %s: %w", path, err)
	}
	return s, nil
}
