// 个人数据删除（docs/personal-data.md）：中文，`personalData.` 下。
const personalDataZh = {
  route: '个人数据删除',
  title: '删除个人数据',
  intro:
    '按身份证号、电话号码、电子邮箱或微信号删除一位数据主体的个人数据：销毁其密钥后，所有报关单、清关异常、联系人簿、历史、导出、回放和审计日志中的该值都显示为“[erased]”，尚未发出的通知不再发送。事件日志本身不变，审计链仍可验证。此操作不可撤销。',
  subject: '身份证号、电话号码、电子邮箱、微信号或数据主体编号',
  subjectHint:
    '空格、横线、+86 前缀和邮箱大小写不影响匹配；数据主体编号形如 ds_ 加 32 位十六进制数字',
  subjectRequired: '请填写身份证号、电话号码、电子邮箱、微信号或数据主体编号',
  reason: '原因',
  reasonHint: '例如申请单号，最多 500 个字符；随删除记录保存',
  erase: '删除',
  confirmTitle: '确认删除个人数据',
  confirmText: '该值的密钥将被销毁，所有记录中的该值将永久显示为“[erased]”，无法恢复。确定继续吗？',
  doneTitle: '已删除',
  doneText: '{{streams}} 条记录（报关单、清关异常、联系人簿）中含有该值，现在显示为“[erased]”。',
  subjectId: '数据主体编号',
  notFound: '系统中没有该值的个人数据',
  alreadyErased: '该数据主体已被删除',
};

export default personalDataZh;
