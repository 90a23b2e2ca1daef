package concurrency

import (
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Of the operations that run on the steady path, most do the work a
// type is for, on every request, message or item: a cache's Get, a
// queue's Push, a client's Publish, a connection's read loop. Some are
// steady but run at the pace of the program's control, not of its data:
// a Ping, a Pause, a Rebalance, a connection's teardown, adding topics
// to consume. A line that only those write costs nothing a maintainer
// would measure, so a finding is proven only between operations on the
// data path; one with a control operation on either side is likely.

// controlVerbs start the names of control operations.
var controlVerbs = []string{
	"Ping", "Pause", "Resume", "Leave", "Join", "Rebalance", "Force", "Begin", "Abort", "Configure", "Reconfigure",
	"Subscribe", "Unsubscribe", "Watch", "Unwatch", "Refresh", "Reload", "Discover", "Alter", "Elect", "Promote",
	"Demote", "Assign", "Revoke", "Enable", "Disable", "Attach", "Detach", "Connect", "Disconnect", "Reconnect",
	"Listen", "Login", "Logout", "Auth", "Authenticate", "Authorize", "Handshake", "Negotiate", "Deregister",
	"Install", "Uninstall", "Upgrade", "Heartbeat", "Cleanup", "Prune", "Die", "Kill", "Cancel", "Quit",
	"Teardown", "Destroy", "Discard", "Retry", "List", "Ensure", "Redirect", "Failover", "Handoff",
}

// controlNouns end the names of operations on a structure's membership
// or configuration: AddConsumeTopics, RemoveConsumePartitions.
var controlNouns = []string{
	"Topics", "Partitions", "Groups", "Brokers", "Members", "Nodes", "Peers", "Servers", "Hooks", "Handlers",
	"Listeners", "Routes", "Shards", "Replicas", "Endpoints", "Addrs", "Addresses", "Hosts", "Plugins",
	"Options", "Config", "Settings", "Timeout", "Deadline", "Limits", "Metadata", "Meta", "Coordinator",
	"Coordinators", "Leader", "Leaders", "Controller",
}

// controlTypes are words that name types whose methods are the
// program's control: a cluster's admin client, a failover, a health
// check.
var controlTypes = []string{"Admin", "Failover", "Health", "Discovery"}

// controlType reports whether a method's receiver is named for control.
func controlType(fn *ssa.Function) bool {
	recv := fn.Signature.Recv()
	if recv == nil {
		return false
	}
	obj := recvObj(recv.Type())
	if obj == nil {
		return false
	}
	return slices.ContainsFunc(camelWords(exported(obj.Name())), func(w string) bool { return slices.Contains(controlTypes, w) })
}

// controlName reports whether a name is that of a control operation: it
// starts with a control verb, or ends with a control noun after a verb.
func controlName(name string) bool {
	words := camelWords(exported(strings.TrimLeft(name, "_")))
	if len(words) == 0 {
		return false
	}
	return slices.Contains(controlVerbs, words[0]) || len(words) > 1 && slices.Contains(controlNouns, words[len(words)-1])
}

// onDataPath reports whether a steady operation does its type's work:
// neither it nor the function it is a literal in is named for control,
// nor is the type it is a method of.
func onDataPath(fn *ssa.Function) bool {
	outer := fn
	for outer.Parent() != nil {
		outer = outer.Parent()
	}
	return !controlName(fn.Name()) && !controlName(outer.Name()) && !controlType(outer)
}
