// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd northbound (module frr-cnpproxyd).
 */
#ifndef _CNPPROXY_NB_H
#define _CNPPROXY_NB_H

#include "lib/northbound.h"

struct pnc_proxy_config;
struct pnc_cp_config;

extern const struct frr_yang_module_info frr_cnpproxyd_info;

#define CNPPROXY_XPATH "/frr-cnpproxyd:cnpproxyd/cnpproxy"

/*
 * Configuration callbacks (cnpproxy_nb_config.c): the per-node callbacks
 * only validate; cnpproxy_apply_finish() reads the committed tree whole.
 */
int cnpproxy_nb_create(struct nb_cb_create_args *args);
int cnpproxy_nb_modify(struct nb_cb_modify_args *args);
int cnpproxy_nb_destroy(struct nb_cb_destroy_args *args);
int cnpproxy_destroy(struct nb_cb_destroy_args *args);
void cnpproxy_apply_finish(struct nb_cb_apply_finish_args *args);
/* cnpproxy_g.cfg without "router cnpproxy" (ports: the YANG defaults). */
void cnpproxy_nb_config_reset(void);
int cnpproxy_proxy_source_modify(struct nb_cb_modify_args *args);
int cnpproxy_proxy_sender_format_modify(struct nb_cb_modify_args *args);
int cnpproxy_proxy_sender_cnp_sized_modify(struct nb_cb_modify_args *args);
int cnpproxy_proxy_for_via_modify(struct nb_cb_modify_args *args);
int cnpproxy_port_modify(struct nb_cb_modify_args *args);
int cnpproxy_icmp6_type_modify(struct nb_cb_modify_args *args);
int cnpproxy_tunnel_mac_modify(struct nb_cb_modify_args *args);

/* Address checks (cnpproxy_nb_validate.c): not unspecified, multicast or broadcast. */
bool cnpproxy_ipaddr_is_unicast(const struct ipaddr *a);
/* NB_EV_VALIDATE of an address leaf that must name one node ("WHAT A is not ..."). */
int cnpproxy_unicast_validate(struct nb_cb_modify_args *args, const char *what);

/* Flow-label tunnel of the proxy role (tunnel/nb.c). */
int cnpproxy_tunnel_address_modify(struct nb_cb_modify_args *args);
/* The tunnel's settings from the committed cnpproxy node (NULL: none) into pc. */
void cnpproxy_tunnel_config_load(struct pnc_proxy_config *pc, const struct lyd_node *cnpproxy);
void cli_show_cnpproxy_tunnel(struct vty *vty, const struct lyd_node *dnode, bool show_defaults);
void cli_show_cnpproxy_tunnel_prefix(struct vty *vty, const struct lyd_node *dnode,
				     bool show_defaults);
void cli_show_cnpproxy_tunnel_shaping(struct vty *vty, const struct lyd_node *dnode,
				      bool show_defaults);

/* Operational state (cnpproxy_nb_state.c). */
struct yang_data *cnpproxy_state_proxy_get_elem(struct nb_cb_get_elem_args *args);
struct yang_data *cnpproxy_state_proxy_flows_get_elem(struct nb_cb_get_elem_args *args);
const void *cnpproxy_state_cp_if_get_next(struct nb_cb_get_next_args *args);
int cnpproxy_state_cp_if_get_keys(struct nb_cb_get_keys_args *args);
const void *cnpproxy_state_cp_if_lookup_entry(struct nb_cb_lookup_entry_args *args);
struct yang_data *cnpproxy_state_cp_if_get_elem(struct nb_cb_get_elem_args *args);
const void *cnpproxy_state_pt_get_next(struct nb_cb_get_next_args *args);
int cnpproxy_state_pt_get_keys(struct nb_cb_get_keys_args *args);
const void *cnpproxy_state_pt_lookup_entry(struct nb_cb_lookup_entry_args *args);
struct yang_data *cnpproxy_state_pt_get_elem(struct nb_cb_get_elem_args *args);
const void *cnpproxy_state_flow_get_next(struct nb_cb_get_next_args *args);
int cnpproxy_state_flow_get_keys(struct nb_cb_get_keys_args *args);
const void *cnpproxy_state_flow_lookup_entry(struct nb_cb_lookup_entry_args *args);
const void *cnpproxy_state_flow_lookup_next(struct nb_cb_lookup_entry_args *args);
struct yang_data *cnpproxy_state_flow_get_elem(struct nb_cb_get_elem_args *args);
const void *cnpproxy_state_attach_get_next(struct nb_cb_get_next_args *args);
int cnpproxy_state_attach_get_keys(struct nb_cb_get_keys_args *args);
const void *cnpproxy_state_attach_lookup_entry(struct nb_cb_lookup_entry_args *args);
struct yang_data *cnpproxy_state_attach_get_elem(struct nb_cb_get_elem_args *args);

/* Congestion point role (cp/nb.c). */
int cnpproxy_cp_fallback_modify(struct nb_cb_modify_args *args);
int cnpproxy_cp_source_modify(struct nb_cb_modify_args *args);
/* The role's settings from the committed cnpproxy node (NULL: none) into cc. */
void cnpproxy_cp_config_load(struct pnc_cp_config *cc, const struct lyd_node *cnpproxy);

/* CLI display callbacks (cnpproxy_cli.c). */
void cli_show_cnpproxy(struct vty *vty, const struct lyd_node *dnode, bool show_defaults);
void cli_show_cnpproxy_end(struct vty *vty, const struct lyd_node *dnode);
void cli_show_cnpproxy_role(struct vty *vty, const struct lyd_node *dnode, bool show_defaults);
void cli_show_cnpproxy_proxy_for(struct vty *vty, const struct lyd_node *dnode, bool show_defaults);
void cli_show_cnpproxy_port(struct vty *vty, const struct lyd_node *dnode, bool show_defaults);
void cli_show_cnpproxy_proxy_setting(struct vty *vty, const struct lyd_node *dnode,
				     bool show_defaults);
int cnpproxy_tunnel_egress_sid_create(struct nb_cb_create_args *args);
void cli_show_cnpproxy_tunnel_egress(struct vty *vty, const struct lyd_node *dnode,
				     bool show_defaults);
void cli_show_cnpproxy_border_if(struct vty *vty, const struct lyd_node *dnode, bool show_defaults);
void cli_show_cnpproxy_proxy_sender(struct vty *vty, const struct lyd_node *dnode,
				    bool show_defaults);

void cli_show_cnpproxy_cp_setting(struct vty *vty, const struct lyd_node *dnode,
				  bool show_defaults);
void cli_show_cnpproxy_cp_if(struct vty *vty, const struct lyd_node *dnode, bool show_defaults);

/*
 * "no" of a setting (cnpproxy_cli.c).  Operators type it without its
 * value; a typed value must be the configured one at "check", or
 * nothing changes.  "change" (check itself, or the list entry holding
 * it) gets op (NB_OP_DESTROY, or NB_OP_MODIFY to restore a default);
 * where it is not configured, the command does nothing and creates
 * nothing.  Both xpaths are relative ("./...").
 */
extern int cnpproxy_cli_no(struct vty *vty, const char *check, const char *typed,
			   const char *change, enum nb_operation op);
/*
 * "[no] ... VALUE" of one leaf: set it, or remove it as cnpproxy_cli_no()
 * does with no_op (the value after "no" is optional).
 */
extern int cnpproxy_cli_leaf(struct vty *vty, bool no, const char *xpath, const char *value,
			     enum nb_operation no_op);
/* "[no] <role> source-address ADDRESS"; "no" without an address removes both. */
extern int cnpproxy_cli_source(struct vty *vty, bool no, const char *role, const char *v4,
			       const char *v6);

/* Shared by the roles' commands (cnpproxy_cli.c). */
struct prefix;
/* A relative xpath ("./...") of the node being edited, in the candidate. */
extern const struct lyd_node *cnpproxy_cli_candidate(struct vty *vty, const char *rel);
/* Whether a value typed after "no ..." is the configured one; says why not. */
extern bool cnpproxy_cli_typed_matches(struct vty *vty, const struct lyd_node *dn,
				       const char *typed);
/*
 * Settings that need a part of the configuration (rel, "./..."): says
 * what to enable first, and with which command, when it is not there.
 */
extern bool cnpproxy_cli_needs(struct vty *vty, const char *rel, const char *what, const char *cmd);
/* An interface name goes into xpath predicates between quotes: says so if it has one. */
extern bool cnpproxy_cli_ifname(struct vty *vty, const char *ifname);
/* The proxy's settings need the role: says so when it is off. */
extern bool cnpproxy_cli_proxy_enabled(struct vty *vty);
/* A sender prefix as a list key: canonical, whatever host bits were typed. */
extern void cnpproxy_cli_prefix_key(const struct prefix *prefix, char *buf, size_t len);
/*
 * "[no] LIST PREFIX LEAF VALUE" for a list keyed by a sender prefix:
 * set the entry's leaf, or remove the entry ("no": the value optional,
 * a typed one must be the configured one).
 */
extern int cnpproxy_cli_prefix_leaf(struct vty *vty, bool no, const char *list,
				    const struct prefix *prefix, const char *leaf,
				    const char *value);

extern void cnpproxy_cli_init(void);
extern void cnpproxy_proxy_cli_init(void);
extern void cnpproxy_tunnel_cli_init(void);
extern void cnpproxy_border_cli_init(void);
extern void cnpproxy_cp_cli_init(void);

#endif /* _CNPPROXY_NB_H */
