/* lib/cbpf.c: classic BPF's checks and interpreter (lib/cbpf.h). */
#include <stdlib.h>
#include <string.h>

#include "lib/cbpf.h"
#include "abi/linux/errno.h"

#define C(cls, op, src) (LINUX_BPF_##cls | LINUX_BPF_##op | LINUX_BPF_##src)

/* A conditional jump (jt and jf)? */
static bool cond_jump(uint16_t code)
{
	uint16_t op = code & 0xf0;

	return LINUX_BPF_CLASS(code) == LINUX_BPF_JMP &&
	       (code & ~(0xf0 | LINUX_BPF_X)) == LINUX_BPF_JMP &&
	       (op == LINUX_BPF_JEQ || op == LINUX_BPF_JGT || op == LINUX_BPF_JGE ||
		op == LINUX_BPF_JSET);
}

/* Linux's chk_code_allowed. */
static bool code_allowed(uint16_t code)
{
	switch (code) {
	case C(ALU, ADD, K):
	case C(ALU, ADD, X):
	case C(ALU, SUB, K):
	case C(ALU, SUB, X):
	case C(ALU, MUL, K):
	case C(ALU, MUL, X):
	case C(ALU, DIV, K):
	case C(ALU, DIV, X):
	case C(ALU, MOD, K):
	case C(ALU, MOD, X):
	case C(ALU, AND, K):
	case C(ALU, AND, X):
	case C(ALU, OR, K):
	case C(ALU, OR, X):
	case C(ALU, XOR, K):
	case C(ALU, XOR, X):
	case C(ALU, LSH, K):
	case C(ALU, LSH, X):
	case C(ALU, RSH, K):
	case C(ALU, RSH, X):
	case LINUX_BPF_ALU | LINUX_BPF_NEG:
	case C(LD, W, ABS):
	case C(LD, H, ABS):
	case C(LD, B, ABS):
	case C(LD, W, LEN):
	case C(LD, W, IND):
	case C(LD, H, IND):
	case C(LD, B, IND):
	case LINUX_BPF_LD | LINUX_BPF_IMM:
	case LINUX_BPF_LD | LINUX_BPF_MEM:
	case C(LDX, W, LEN):
	case C(LDX, B, MSH):
	case LINUX_BPF_LDX | LINUX_BPF_IMM:
	case LINUX_BPF_LDX | LINUX_BPF_MEM:
	case LINUX_BPF_ST:
	case LINUX_BPF_STX:
	case LINUX_BPF_MISC | LINUX_BPF_TAX:
	case LINUX_BPF_MISC | LINUX_BPF_TXA:
	case LINUX_BPF_RET | LINUX_BPF_K:
	case LINUX_BPF_RET | LINUX_BPF_A:
	case LINUX_BPF_JMP | LINUX_BPF_JA:
		return true;
	}
	return cond_jump(code);
}

/* An ancillary load's offset (SKF_AD_OFF + a multiple of 4 below
 * SKF_AD_MAX): Linux's bpf_anc_helper knows them all. */
static bool is_ancillary(uint32_t k)
{
	return k >= (uint32_t)LINUX_SKF_AD_OFF &&
	       k - (uint32_t)LINUX_SKF_AD_OFF < LINUX_SKF_AD_MAX && (k & 3) == 0;
}

/* Linux's check_load_and_stores: a scratch word is loaded only where every
 * path stored it (what is stored carries past a return into the next
 * instruction, as there). */
static int check_load_and_stores(const struct linux_sock_filter *p, unsigned len)
{
	uint16_t *masks, valid = 0;
	unsigned pc;
	int ret = 0;

	masks = malloc(len * sizeof(*masks));
	if (!masks)
		return -ENOMEM;
	memset(masks, 0xff, len * sizeof(*masks));
	for (pc = 0; pc < len && ret == 0; pc++) {
		const struct linux_sock_filter *i = &p[pc];

		valid &= masks[pc];
		switch (i->code) {
		case LINUX_BPF_ST:
		case LINUX_BPF_STX:
			valid |= (uint16_t)(1U << i->k);
			break;
		case LINUX_BPF_LD | LINUX_BPF_MEM:
		case LINUX_BPF_LDX | LINUX_BPF_MEM:
			if (!(valid & (1U << i->k)))
				ret = -EINVAL;
			break;
		case LINUX_BPF_JMP | LINUX_BPF_JA:
			masks[pc + 1 + i->k] &= valid;
			valid = 0xffff;
			break;
		default:
			if (cond_jump(i->code)) {
				masks[pc + 1 + i->jt] &= valid;
				masks[pc + 1 + i->jf] &= valid;
				valid = 0xffff;
			}
		}
	}
	free(masks);
	return ret;
}

int cbpf_check(const struct linux_sock_filter *p, unsigned len)
{
	unsigned pc;

	if (len == 0)
		return -EINVAL;
	for (pc = 0; pc < len; pc++) {
		const struct linux_sock_filter *i = &p[pc];

		if (!code_allowed(i->code))
			return -EINVAL;
		switch (i->code) {
		case C(ALU, DIV, K):
		case C(ALU, MOD, K):
			if (i->k == 0)
				return -EINVAL;
			break;
		case C(ALU, LSH, K):
		case C(ALU, RSH, K):
			if (i->k >= 32)
				return -EINVAL;
			break;
		case LINUX_BPF_LD | LINUX_BPF_MEM:
		case LINUX_BPF_LDX | LINUX_BPF_MEM:
		case LINUX_BPF_ST:
		case LINUX_BPF_STX:
			if (i->k >= LINUX_BPF_MEMWORDS)
				return -EINVAL;
			break;
		case LINUX_BPF_JMP | LINUX_BPF_JA:
			if (i->k >= len - pc - 1)
				return -EINVAL;
			break;
		case C(LD, W, ABS):
		case C(LD, H, ABS):
		case C(LD, B, ABS):
			if (i->k >= (uint32_t)LINUX_SKF_AD_OFF && !is_ancillary(i->k))
				return -EINVAL;
			break;
		default:
			if (cond_jump(i->code) && (pc + i->jt + 1 >= len || pc + i->jf + 1 >= len))
				return -EINVAL;
		}
	}
	if (LINUX_BPF_CLASS(p[len - 1].code) != LINUX_BPF_RET)
		return -EINVAL;
	return check_load_and_stores(p, len);
}

/* A load of size bytes at off (Linux's bpf_skb_load_helper and
 * bpf_internal_load_pointer_neg_helper), big-endian: false if outside. */
static bool load(const struct cbpf_pkt *pkt, int32_t off, unsigned size, uint32_t *out)
{
	const uint8_t *b;
	int64_t at;
	unsigned n;

	if (off >= 0) {
		if ((uint64_t)off + size > pkt->len)
			return false;
		at = (int64_t)pkt->data_off + off;
	} else if (off >= LINUX_SKF_NET_OFF && pkt->net_off >= 0) {
		at = (int64_t)pkt->net_off + (off - LINUX_SKF_NET_OFF);
	} else if (off < LINUX_SKF_NET_OFF && off >= LINUX_SKF_LL_OFF && pkt->ll_off >= 0) {
		at = (int64_t)pkt->ll_off + (off - LINUX_SKF_LL_OFF);
	} else {
		return false;
	}
	if (at + size > pkt->head_len)
		return false;
	b = pkt->head + at;
	*out = 0;
	for (n = 0; n < size; n++)
		*out = *out << 8 | b[pkt->host_order ? size - 1 - n : n];
	return true;
}

/* Linux's nla_find over len bytes at at: the offset of the first
 * attribute of type (its flag bits aside), or 0. */
static uint32_t nla_find(const struct cbpf_pkt *pkt, uint32_t at, uint32_t len, uint32_t type)
{
	const uint8_t *d = pkt->head + pkt->data_off;

	while (len >= 4) {
		uint16_t nla_len, nla_type;
		uint32_t step;

		memcpy(&nla_len, d + at, 2);
		memcpy(&nla_type, d + at + 2, 2);
		if (nla_len < 4 || nla_len > len)
			break;
		if ((nla_type & 0x3fff) == type)
			return at;
		step = (nla_len + 3u) & ~3u; /* NLA_ALIGN, past 0xffff too */
		if (step >= len)
			break;
		at += step;
		len -= step;
	}
	return 0;
}

/* SKF_AD_NLATTR and SKF_AD_NLATTR_NEST (Linux's bpf_skb_get_nlattr and
 * _nest): the offset of attribute x in the attributes at a, or in the
 * attribute at a's payload; 0 if none. */
static uint32_t nlattr(const struct cbpf_pkt *pkt, uint32_t a, uint32_t x, bool nest)
{
	uint16_t nla_len;

	if (pkt->len < 4 || a > pkt->len - 4)
		return 0;
	if (!nest)
		return nla_find(pkt, a, pkt->len - a, x);
	memcpy(&nla_len, pkt->head + pkt->data_off + a, 2);
	if (nla_len > pkt->len - a || nla_len < 4)
		return 0;
	return nla_find(pkt, a + 4, nla_len - 4u, x);
}

/* An ancillary load into *a (x for the two that take it): false if the
 * program ends there, returning A as it was (a device's value with none:
 * Linux's conversion exits with A). */
static bool ancillary(const struct cbpf_pkt *pkt, uint32_t k, uint32_t *a, uint32_t x)
{
	switch (k - (uint32_t)LINUX_SKF_AD_OFF) {
	case LINUX_SKF_AD_PROTOCOL:
		*a = pkt->protocol;
		return true;
	case LINUX_SKF_AD_PKTTYPE:
		*a = pkt->pkttype;
		return true;
	case LINUX_SKF_AD_IFINDEX:
		if (pkt->has_dev)
			*a = pkt->ifindex;
		return pkt->has_dev;
	case LINUX_SKF_AD_HATYPE:
		if (pkt->has_dev)
			*a = pkt->hatype;
		return pkt->has_dev;
	case LINUX_SKF_AD_MARK:
		*a = pkt->mark;
		return true;
	case LINUX_SKF_AD_NLATTR:
		*a = nlattr(pkt, *a, x, false);
		return true;
	case LINUX_SKF_AD_NLATTR_NEST:
		*a = nlattr(pkt, *a, x, true);
		return true;
	case LINUX_SKF_AD_ALU_XOR_X:
		*a ^= x;
		return true;
	case LINUX_SKF_AD_RANDOM:
		*a = (uint32_t)random();
		return true;
	default:
		/* Differs from Linux: the receive queue, hash and CPU, the
		 * VLAN's tag and protocol and the payload's offset read 0
		 * (no device here fills them but the CPU, which varies). */
		*a = 0;
		return true;
	}
}

uint32_t cbpf_run(const struct linux_sock_filter *p, const struct cbpf_pkt *pkt)
{
	uint32_t a = 0, x = 0, mem[LINUX_BPF_MEMWORDS] = { 0 }, v;
	unsigned pc = 0;

	for (;;) {
		const struct linux_sock_filter *i = &p[pc++];
		/* the ALU's and the jumps' operand (the loads' ignore it) */
		uint32_t src = (i->code & LINUX_BPF_X) ? x : i->k;

		switch (i->code) {
		case C(LD, W, ABS):
		case C(LD, H, ABS):
		case C(LD, B, ABS):
			if (is_ancillary(i->k)) {
				if (!ancillary(pkt, i->k, &a, x))
					return a;
				break;
			}
			/* fallthrough */
		case C(LD, W, IND):
		case C(LD, H, IND):
		case C(LD, B, IND): {
			unsigned size = (i->code & 0x18) == LINUX_BPF_W	  ? 4
					: (i->code & 0x18) == LINUX_BPF_H ? 2
									  : 1;
			int32_t off = (i->code & 0xe0) == LINUX_BPF_IND ? (int32_t)(x + i->k)
									: (int32_t)i->k;

			if (!load(pkt, off, size, &a))
				return 0;
			break;
		}
		case C(LD, W, LEN):
			a = pkt->len;
			break;
		case C(LDX, W, LEN):
			x = pkt->len;
			break;
		case C(LDX, B, MSH):
			if (!load(pkt, (int32_t)i->k, 1, &v))
				return 0;
			x = (v & 0xf) << 2;
			break;
		case LINUX_BPF_LD | LINUX_BPF_IMM:
			a = i->k;
			break;
		case LINUX_BPF_LDX | LINUX_BPF_IMM:
			x = i->k;
			break;
		case LINUX_BPF_LD | LINUX_BPF_MEM:
			a = mem[i->k];
			break;
		case LINUX_BPF_LDX | LINUX_BPF_MEM:
			x = mem[i->k];
			break;
		case LINUX_BPF_ST:
			mem[i->k] = a;
			break;
		case LINUX_BPF_STX:
			mem[i->k] = x;
			break;
		case LINUX_BPF_MISC | LINUX_BPF_TAX:
			x = a;
			break;
		case LINUX_BPF_MISC | LINUX_BPF_TXA:
			a = x;
			break;
		case C(ALU, ADD, K):
		case C(ALU, ADD, X):
			a += src;
			break;
		case C(ALU, SUB, K):
		case C(ALU, SUB, X):
			a -= src;
			break;
		case C(ALU, MUL, K):
		case C(ALU, MUL, X):
			a *= src;
			break;
		case C(ALU, DIV, K):
		case C(ALU, DIV, X):
			if (src == 0)
				return 0;
			a /= src;
			break;
		case C(ALU, MOD, K):
		case C(ALU, MOD, X):
			if (src == 0)
				return 0;
			a %= src;
			break;
		case C(ALU, AND, K):
		case C(ALU, AND, X):
			a &= src;
			break;
		case C(ALU, OR, K):
		case C(ALU, OR, X):
			a |= src;
			break;
		case C(ALU, XOR, K):
		case C(ALU, XOR, X):
			a ^= src;
			break;
		case C(ALU, LSH, K):
		case C(ALU, LSH, X):
			a <<= (src & 31);
			break;
		case C(ALU, RSH, K):
		case C(ALU, RSH, X):
			a >>= (src & 31);
			break;
		case LINUX_BPF_ALU | LINUX_BPF_NEG:
			a = -a;
			break;
		case LINUX_BPF_JMP | LINUX_BPF_JA:
			pc += i->k;
			break;
		case C(JMP, JEQ, K):
		case C(JMP, JEQ, X):
			pc += a == src ? i->jt : i->jf;
			break;
		case C(JMP, JGT, K):
		case C(JMP, JGT, X):
			pc += a > src ? i->jt : i->jf;
			break;
		case C(JMP, JGE, K):
		case C(JMP, JGE, X):
			pc += a >= src ? i->jt : i->jf;
			break;
		case C(JMP, JSET, K):
		case C(JMP, JSET, X):
			pc += (a & src) ? i->jt : i->jf;
			break;
		case LINUX_BPF_RET | LINUX_BPF_K:
			return i->k;
		case LINUX_BPF_RET | LINUX_BPF_A:
			return a;
		default: /* cbpf_check let nothing else in */
			return 0;
		}
	}
}
