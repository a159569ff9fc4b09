package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclientset "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	kubeapiservertesting "k8s.io/kubernetes/cmd/kube-apiserver/app/testing"

	"github.com/gcplay/gcplay/conformance/internal/within"
	"github.com/gcplay/gcplay/fakeapi"
)

// apiserverFlags are the flags upstream's integration tests start the
// test apiserver with (test/integration/framework DefaultTestServerFlags):
// no endpoint reconciler (it would keep failing on 127.0.0.1), and no
// ServiceAccount admission, since no service-account controller runs
// (otherwise every Pod would be refused for its missing "default"
// ServiceAccount).
var apiserverFlags = []string{
	"--endpoint-reconciler-type=none",
	"--disable-admission-plugins=ServiceAccount",
}

// Cluster is one throw-away control plane: an embedded etcd on 127.0.0.1
// with a temporary data directory, and a kube-apiserver started through
// upstream's test-server helper, both in this process. Controllers are
// started on it separately (controllers.go).
type Cluster struct {
	h       *harness
	log     io.Writer
	etcd    *embed.Etcd
	etcdDir string
	etcdCli *clientv3.Client
	server  kubeapiservertesting.TestServer

	config *rest.Config
	client kubernetes.Interface
	meta   metadata.Interface
	dyn    dynamic.Interface
	ext    apiextensionsclientset.Interface
	mapper meta.ResettableRESTMapper

	ctrls *controllers
}

// StartCluster starts etcd and the apiserver and waits until the
// apiserver is healthy and the default namespace exists.
func StartCluster(name string, log io.Writer) (c *Cluster, err error) {
	c = &Cluster{h: newHarness(name, log), log: log}
	defer func() {
		if p := recover(); p != nil {
			fe, ok := p.(fatalError)
			if !ok {
				panic(p)
			}
			err = fmt.Errorf("starting the apiserver: %s", fe.msg)
		}
		if err != nil {
			c.Stop()
			c = nil
		}
	}()
	clientURL, err := c.startEtcd()
	if err != nil {
		return nil, err
	}
	storage := storagebackend.NewDefaultConfig("/registry", nil)
	storage.Transport.ServerList = []string{clientURL}
	c.server, err = kubeapiservertesting.StartTestServer(c.h, nil, apiserverFlags, storage)
	if err != nil {
		return nil, fmt.Errorf("starting the apiserver: %w", err)
	}
	c.etcdCli = c.server.EtcdClient
	c.config = rest.CopyConfig(c.server.ClientConfig)
	if c.client, err = kubernetes.NewForConfig(c.config); err != nil {
		return nil, err
	}
	if c.meta, err = metadata.NewForConfig(c.config); err != nil {
		return nil, err
	}
	if c.dyn, err = dynamic.NewForConfig(c.config); err != nil {
		return nil, err
	}
	if c.ext, err = apiextensionsclientset.NewForConfig(c.config); err != nil {
		return nil, err
	}
	c.mapper = restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(c.client.Discovery()))
	// The system namespaces a scenario may use from the start.
	err = wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		for _, ns := range []string{"default", "kube-system", "kube-public", "kube-node-lease"} {
			if _, err := c.client.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{}); err != nil {
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		return nil, fmt.Errorf("waiting for the system namespaces: %w", err)
	}
	c.ctrls = newControllers(c)
	return c, nil
}

// startEtcd starts an embedded single-member etcd on two free ports of
// 127.0.0.1 and returns its client URL.
func (c *Cluster) startEtcd() (string, error) {
	dir, err := os.MkdirTemp("", "gcplay-etcd-")
	if err != nil {
		return "", err
	}
	c.etcdDir = dir
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		ports, err := freePorts(2)
		if err != nil {
			return "", err
		}
		cfg := embed.NewConfig()
		cfg.Dir = dir
		cfg.UnsafeNoFsync = true // a throw-away store
		clientURL := url.URL{Scheme: "http", Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[0]))}
		peerURL := url.URL{Scheme: "http", Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[1]))}
		cfg.ListenClientUrls = []url.URL{clientURL}
		cfg.AdvertiseClientUrls = []url.URL{clientURL}
		cfg.ListenPeerUrls = []url.URL{peerURL}
		cfg.AdvertisePeerUrls = []url.URL{peerURL}
		cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
		core := zapcore.NewCore(zapcore.NewConsoleEncoder(zap.NewDevelopmentEncoderConfig()), zapcore.AddSync(c.log), zapcore.ErrorLevel)
		cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.New(core).Named("etcd"))
		e, err := embed.StartEtcd(cfg)
		if err != nil {
			lastErr = err
			if strings.Contains(err.Error(), "address already in use") {
				os.RemoveAll(dir)
				os.MkdirAll(dir, 0o700)
				continue
			}
			return "", fmt.Errorf("starting etcd: %w", err)
		}
		select {
		case <-e.Server.ReadyNotify():
		case <-time.After(time.Minute):
			e.Close()
			return "", errors.New("etcd took more than a minute to start")
		}
		c.etcd = e
		return clientURL.String(), nil
	}
	return "", fmt.Errorf("starting etcd: %w", lastErr)
}

// freePorts finds n free TCP ports on 127.0.0.1. Another process could
// take one before etcd binds it; startEtcd retries then.
func freePorts(n int) ([]int, error) {
	var ports []int
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// Stop stops the controllers, the apiserver and etcd, and removes their
// temporary directories.
func (c *Cluster) Stop() {
	if c.ctrls != nil {
		c.ctrls.stopAll()
	}
	if c.server.TearDownFn != nil {
		c.server.TearDownFn()
	}
	c.h.runCleanups()
	if c.etcd != nil {
		c.etcd.Close()
	}
	if c.etcdDir != "" {
		os.RemoveAll(c.etcdDir)
	}
}

// Revision is etcd's current revision: every write anywhere in the
// cluster raises it, so "unchanged for a while" means nothing was written.
func (c *Cluster) Revision(ctx context.Context) (int64, error) {
	resp, err := c.etcdCli.Get(ctx, "/gcplay-conformance-revision-probe", clientv3.WithCountOnly())
	if err != nil {
		return 0, err
	}
	return resp.Header.Revision, nil
}

// InstallKinds serves the scenario's custom kinds as CustomResourceDefinitions
// (one per group and kind, one version per declared apiVersion, the
// first declared being the storage version) and waits until discovery
// lists them.
func (c *Cluster) InstallKinds(ctx context.Context, kinds []fakeapi.KindInfo) error {
	type gk struct{ group, kind string }
	var order []gk
	byGK := map[gk][]fakeapi.KindInfo{}
	for _, k := range kinds {
		key := gk{k.Group(), k.Kind}
		if key.group == "" {
			return fmt.Errorf("custom kind %s %s is in the core group: a real cluster serves custom kinds only in a named group", k.APIVersion, k.Kind)
		}
		if _, ok := byGK[key]; !ok {
			order = append(order, key)
		}
		byGK[key] = append(byGK[key], k)
	}
	preserve := true
	for _, key := range order {
		ks := byGK[key]
		first := ks[0]
		scope := apiextensionsv1.NamespaceScoped
		if !first.Namespaced() {
			scope = apiextensionsv1.ClusterScoped
		}
		crd := &apiextensionsv1.CustomResourceDefinition{
			ObjectMeta: metav1.ObjectMeta{Name: first.Resource + "." + key.group},
			Spec: apiextensionsv1.CustomResourceDefinitionSpec{
				Group: key.group,
				Names: apiextensionsv1.CustomResourceDefinitionNames{
					Plural: first.Resource, Singular: strings.ToLower(first.Kind), Kind: first.Kind, ListKind: first.Kind + "List",
				},
				Scope: scope,
			},
		}
		for i, k := range ks {
			_, v := fakeapi.SplitAPIVersion(k.APIVersion)
			crd.Spec.Versions = append(crd.Spec.Versions, apiextensionsv1.CustomResourceDefinitionVersion{
				Name: v, Served: true, Storage: i == 0,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object", XPreserveUnknownFields: &preserve,
				}},
			})
		}
		if _, err := c.ext.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, crd, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("creating the CustomResourceDefinition for %s: %w", first.Kind, err)
		}
		err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
			got, err := c.ext.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, crd.Name, metav1.GetOptions{})
			if err != nil {
				return false, nil
			}
			established := false
			for _, cond := range got.Status.Conditions {
				if cond.Type == apiextensionsv1.Established && cond.Status == apiextensionsv1.ConditionTrue {
					established = true
				}
			}
			if !established {
				return false, nil
			}
			for _, k := range ks {
				list, err := c.client.Discovery().ServerResourcesForGroupVersion(k.APIVersion)
				if err != nil {
					return false, nil
				}
				found := false
				for _, r := range list.APIResources {
					found = found || r.Name == k.Resource
				}
				if !found {
					return false, nil
				}
			}
			return true, nil
		})
		if err != nil {
			return fmt.Errorf("waiting for the CustomResourceDefinition %s: %w", crd.Name, err)
		}
	}
	c.mapper.Reset()
	return nil
}

// isNotFound reports a 404 from the apiserver.
func isNotFound(err error) bool { return apierrors.IsNotFound(err) }

// startTimed starts the throw-away cluster of the job called name, with a
// header in the log, and records in rep how long the start took. The
// returned stop records how long the job ran on the cluster, then stops it
// and records how long that took.
func startTimed(rep *FileReport, name string, log io.Writer) (c *Cluster, stop func(), err error) {
	fmt.Fprintf(log, "\n===== %s =====\n", name)
	t0 := time.Now()
	c, err = within.Start(startLimit, func() (*Cluster, error) { return StartCluster(name, log) }, (*Cluster).Stop)
	if errors.Is(err, within.ErrTimeout) {
		err = fmt.Errorf("the cluster (etcd and upstream's test apiserver) did not start: %w", err)
	}
	rep.Start = time.Since(t0)
	if err != nil {
		return nil, nil, err
	}
	t1 := time.Now()
	return c, func() {
		rep.Run = time.Since(t1)
		t := time.Now()
		c.Stop()
		rep.Stop = time.Since(t)
	}, nil
}

// startLimit is how long a cluster may take to start. A start takes a few
// seconds; upstream's test server waits for the new apiserver's health
// without a deadline of its own, and under heavy load it once waited for
// more than ten minutes. A job whose start runs past the limit fails with
// an error, which the runner answers by running the job again on a fresh
// cluster, instead of a CI run waiting for its own time limit.
const startLimit = 3 * time.Minute
