package suggest

var CMember = cMember
