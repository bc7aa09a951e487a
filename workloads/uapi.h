/*
 * uapi.h: the few kernel ioctl numbers and structures the guest needs.
 * musl-gcc does not see the kernel's uapi headers (<linux/...>), so they
 * are mirrored here, field for field; each block names the header it
 * copies. These are stable ABI: they have not changed since the kernels
 * iobisect can boot.
 */
#ifndef IOBISECT_GUEST_UAPI_H
#define IOBISECT_GUEST_UAPI_H

#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mount.h>

/* <linux/fs.h> (musl's <sys/mount.h> has most of them) */
#ifndef BLKROGET
#define BLKROGET _IO(0x12, 94)
#endif
#ifndef BLKRRPART
#define BLKRRPART _IO(0x12, 95)
#endif
#ifndef BLKFLSBUF
#define BLKFLSBUF _IO(0x12, 97)
#endif
#ifndef BLKRASET
#define BLKRASET _IO(0x12, 98)
#endif
#ifndef BLKRAGET
#define BLKRAGET _IO(0x12, 99)
#endif
#ifndef BLKSSZGET
#define BLKSSZGET _IO(0x12, 104)
#endif
#ifndef BLKPG
#define BLKPG _IO(0x12, 105)
#endif
#ifndef BLKGETSIZE64
#define BLKGETSIZE64 _IOR(0x12, 114, size_t)
#endif

/* <linux/blkpg.h> */
#define BLKPG_ADD_PARTITION 1
#define BLKPG_DEL_PARTITION 2
struct blkpg_ioctl_arg {
	int op;
	int flags;
	int datalen;
	void *data;
};
struct blkpg_partition {
	long long start;  /* bytes */
	long long length; /* bytes */
	int pno;
	char devname[64];
	char volname[64];
};

/* <linux/raid/md_u.h> and <linux/raid/md_p.h> */
#define MD_MAJOR 9
#define MD_SB_CLEAN 0
#define MD_DISK_FAULTY 0
#define MD_DISK_ACTIVE 1
#define MD_DISK_SYNC 2
/* 0.90 superblocks sit in the last 64 KiB-aligned 64 KiB of a member. */
#define MD_RESERVED_SECTORS 128
struct mdu_array_info {
	int major_version;
	int minor_version;
	int patch_version;
	unsigned int ctime;
	int level;
	int size; /* KiB used on each member */
	int nr_disks;
	int raid_disks;
	int md_minor;
	int not_persistent;
	unsigned int utime;
	int state;
	int active_disks;
	int working_disks;
	int failed_disks;
	int spare_disks;
	int layout;
	int chunk_size; /* bytes */
};
struct mdu_disk_info {
	int number;
	int major;
	int minor;
	int raid_disk;
	int state;
};
#define GET_ARRAY_INFO _IOR(MD_MAJOR, 0x11, struct mdu_array_info)
#define GET_DISK_INFO _IOR(MD_MAJOR, 0x12, struct mdu_disk_info)
#define ADD_NEW_DISK _IOW(MD_MAJOR, 0x21, struct mdu_disk_info)
#define SET_ARRAY_INFO _IOW(MD_MAJOR, 0x23, struct mdu_array_info)
struct mdu_param {
	int personality;
	int chunk_size;
	int max_fault;
};
#define RUN_ARRAY _IOW(MD_MAJOR, 0x30, struct mdu_param)
#define STOP_ARRAY _IO(MD_MAJOR, 0x32)

/* <linux/dm-ioctl.h> */
#define DM_VERSION_MAJOR 4
#define DM_NAME_LEN 128
#define DM_UUID_LEN 129
#define DM_MAX_TYPE_NAME 16
#define DM_READONLY_FLAG (1 << 0)
#define DM_SUSPEND_FLAG (1 << 1)
struct dm_ioctl {
	uint32_t version[3];
	uint32_t data_size;
	uint32_t data_start;
	uint32_t target_count;
	int32_t open_count;
	uint32_t flags;
	uint32_t event_nr;
	uint32_t padding;
	uint64_t dev;
	char name[DM_NAME_LEN];
	char uuid[DM_UUID_LEN];
	char data[7];
};
struct dm_target_spec {
	uint64_t sector_start;
	uint64_t length;
	int32_t status;
	uint32_t next;
	char target_type[DM_MAX_TYPE_NAME];
};
#define DM_IOCTL 0xfd
#define DM_DEV_CREATE _IOWR(DM_IOCTL, 3, struct dm_ioctl)
#define DM_DEV_REMOVE _IOWR(DM_IOCTL, 4, struct dm_ioctl)
#define DM_DEV_SUSPEND _IOWR(DM_IOCTL, 6, struct dm_ioctl)
#define DM_TABLE_LOAD _IOWR(DM_IOCTL, 9, struct dm_ioctl)

/* <linux/loop.h> */
#define LO_NAME_SIZE 64
#define LO_KEY_SIZE 32
#define LO_FLAGS_READ_ONLY 1
#define LO_FLAGS_AUTOCLEAR 4
struct loop_info64 {
	uint64_t lo_device;
	uint64_t lo_inode;
	uint64_t lo_rdevice;
	uint64_t lo_offset;
	uint64_t lo_sizelimit;
	uint32_t lo_number;
	uint32_t lo_encrypt_type;
	uint32_t lo_encrypt_key_size;
	uint32_t lo_flags;
	uint8_t lo_file_name[LO_NAME_SIZE];
	uint8_t lo_crypt_name[LO_NAME_SIZE];
	uint8_t lo_encrypt_key[LO_KEY_SIZE];
	uint64_t lo_init[2];
};
struct loop_config {
	uint32_t fd;
	uint32_t block_size;
	struct loop_info64 info;
	uint64_t reserved[8];
};
#define LOOP_SET_FD 0x4C00
#define LOOP_CLR_FD 0x4C01
#define LOOP_SET_STATUS64 0x4C04
#define LOOP_CONFIGURE 0x4C0A
#define LOOP_CTL_GET_FREE 0x4C82

#endif
