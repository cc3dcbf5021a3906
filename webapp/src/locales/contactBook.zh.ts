const zh = {
  title: '常用联系人',
  intro:
    '清关异常通知的常用联系人：微信（openId）、邮箱、电话，分发件方与收件方，可用颜色标记。新建异常时可直接选用。',
  empty: '还没有联系人',
  add: '添加联系人',
  save: '保存',
  saved: '联系人已保存',
  remove: '删除',
  conflict: '联系人已被他人修改，已重新加载，请再次保存',
  column: { channel: '渠道', side: '所属', name: '名称', value: '联系方式', color: '颜色' },
  channel: { wechat: '微信', email: '邮箱', phone: '电话' },
  side: { shipFrom: '发件方', shipTo: '收件方' },
  color: {
    red: '红',
    orange: '橙',
    yellow: '黄',
    green: '绿',
    blue: '蓝',
    purple: '紫',
    gray: '灰',
  },
  valueHint: { wechat: 'openId', email: 'name@example.com', phone: '+86 138 0000 0000' },
  badPhone: '电话号码格式不正确，应为手机号、带区号的座机号或以 + 开头的国际号码',
  pick: '从常用联系人中选择',
};

export default zh;

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
export type ContactBookMessages = Widen<typeof zh>;
