// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-pkt: the help texts (pnc-pkt --help, build --help, decode --help).
 */
#include "pnc_pkt.h"

void usage_main(FILE *f)
{
	fputs("NAME\n"
	      "    pnc-pkt - build and decode RoCEv2 and congestion notification packets\n"
	      "\n"
	      "SYNOPSIS\n"
	      "    pnc-pkt build KIND [FIELD=VALUE ...] [--out hex|raw|json|pcap FILE] [--eth]\n"
	      "                  [-4|-6] [--count N] [--vary FIELD=START:STEP] [--random SEED]\n"
	      "    pnc-pkt decode [--format json|text] [--input hex|pcap|raw] [--as notif|fcn]\n"
	      "                   [--lenient] [--hex] [--eth] [FILE|-]\n"
	      "    pnc-pkt --help | build --help | decode --help\n"
	      "\n"
	      "DESCRIPTION\n"
	      "    build writes packets from the IP header on (hex lines by default), using\n"
	      "    the codecs of cnpproxyd.  KIND is one of: cnp, rc-write, rc-send, ack,\n"
	      "    cm-req, cm-rep, cm-rtu, cm-rej, cm-dreq, notif, fcn.\n"
	      "\n"
	      "    decode reads hex lines, a raw packet or a pcap file (LINKTYPE_RAW or\n"
	      "    Ethernet, 802.1Q tags allowed) and prints one JSON object per packet\n"
	      "    with every field and icrc_ok, or {\"packet\":N,\"error\":REASON}.\n"
	      "\n"
	      "EXIT STATUS\n"
	      "    0 all packets valid, 1 a packet was invalid, 2 usage or I/O error.\n"
	      "\n"
	      "    See doc/pnc-pkt.md for examples.\n",
	      f);
}

void usage_build(FILE *f)
{
	fputs("SYNOPSIS\n"
	      "    pnc-pkt build KIND [first|middle|last|only] [FIELD=VALUE ...] [OPTIONS]\n"
	      "\n"
	      "KINDS\n"
	      "    cnp       standard RoCEv2 CNP (doc/wire-formats.md 2): DSCP 48, BECN, DestQP\n"
	      "    rc-write  RC RDMA WRITE first/middle/last/only (+imm with imm=)\n"
	      "    rc-send   RC SEND first/middle/last/only (+imm with imm=)\n"
	      "    ack       RC ACKNOWLEDGE: syndrome=ack|rnr|nak|N, nak=, credits=, msn=\n"
	      "    cm-req cm-rep cm-rtu cm-rej cm-dreq\n"
	      "              CM MAD in a UD SEND Only to QP1 (doc/wire-formats.md 4)\n"
	      "    notif     seed 002 notification (6.2) to UDP 61791; invoking=HEX or\n"
	      "              invoking=KIND with inv.FIELD=VALUE; the five-tuple defaults\n"
	      "              to the invoking packet's\n"
	      "    fcn       seed 001 flow-label FCN (6.3) to UDP 61792, IPv6 by default\n"
	      "\n"
	      "OPTIONS\n"
	      "    --out hex        one packet per line, from the IP header (default)\n"
	      "    --out raw        the octets on stdout\n"
	      "    --out json       the decoded view of each packet, with \"hex\"\n"
	      "    --out pcap FILE  LINKTYPE_RAW (101), or Ethernet with --eth; - = stdout\n"
	      "    --eth            prepend an Ethernet header (02:00:00:00:00:0x)\n"
	      "    -4, -6           IP version (also follows src=/dst=)\n"
	      "    --count N        N packets\n"
	      "    --vary F=S:STEP  packet i gets F = S + i*STEP (numbers, IP addresses)\n"
	      "    --random SEED    random values for the main fields of the kind, then\n"
	      "                     the FIELD=VALUE arguments on top\n"
	      "\n"
	      "VALUES\n"
	      "    Numbers: decimal, 0x hex, 0 octal, 0b binary.  Booleans: 0/1, yes/no,\n"
	      "    true/false.  Addresses: IPv4 or IPv6.  Octet strings: hex.  Names may use\n"
	      "    - or _.  Aliases: tclass=tos, hlim=ttl, fl=flow-label, dest-qp=dqpn,\n"
	      "    mig=m, len=payload-len, proto=protocol, version=ip.\n"
	      "\n"
	      "FIELDS (name, kinds, meaning)\n",
	      f);
	fields_help(f);
	fputs("\n"
	      "DEFAULTS\n"
	      "    192.0.2.1 -> 192.0.2.2 (2001:db8::1 -> ::2), TTL 64, DF, ID 0, UDP source\n"
	      "    port 0xC000, checksum 0 for RoCEv2 and computed for notif/fcn, P_Key\n"
	      "    0xFFFF.  cnp: TOS 0xC0, DestQP 0x123 (the vector of doc/wire-formats.md 3.3).\n"
	      "    rc-*: only, DestQP 0x22, AckReq, 64 octets of payload.  cm-req: comm ID\n"
	      "    0x1000, QPN 0x11, PSN 0x100; cm-rep: comm IDs 0x2000/0x1000, QPN 0x22,\n"
	      "    PSN 0x200.  notif: CL 3, 198.51.100.1:49152 -> 198.51.100.2:4791.\n"
	      "    fcn: label 0x12345, CL 5.\n",
	      f);
}

void usage_decode(FILE *f)
{
	fputs("SYNOPSIS\n"
	      "    pnc-pkt decode [OPTIONS] [FILE|-]\n"
	      "\n"
	      "    Reads FILE (default stdin) and prints each packet: RoCEv2 on UDP 4791\n"
	      "    (CNP, RC SEND/WRITE, ACK, CM MADs to QP1, other opcodes as raw), the\n"
	      "    seed 002 notification on UDP 61791 and the seed 001 FCN on UDP 61792.\n"
	      "\n"
	      "OPTIONS\n"
	      "    --format json|text  one JSON object per line (default), or text\n"
	      "    --input hex|pcap|raw\n"
	      "                        hex: one packet per line, # comments; raw: the file\n"
	      "                        is one packet; default: guessed from the content\n"
	      "    --eth               hex/raw input starts with an Ethernet header\n"
	      "    --as notif|fcn      the input is a bare UDP payload of that message\n"
	      "    --notif-port N, --fcn-port N\n"
	      "                        ports of the messages (61791, 61792)\n"
	      "    --lenient           decode despite a bad ICRC (icrc_ok false)\n"
	      "    --hex               add the packet's octets as \"hex\"\n"
	      "\n"
	      "ERRORS\n"
	      "    An invalid packet prints {\"packet\":N,\"error\":REASON} where REASON is\n"
	      "    the codec's identifier (icrc-mismatch, ip-truncated, bth-bad-tver, ...)\n"
	      "    and the exit status is 1.\n",
	      f);
}
