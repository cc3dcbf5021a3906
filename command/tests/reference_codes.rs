//! Our seed CSVs checked against copies of the public code tables in the shared
//! `reference/` folder (origin: `seeds/reference/README.md`). The copies are embedded here
//! because nothing may read that folder at test time. Each expectation line is
//! `code,<the columns named in the call>`; every one must be in our seed with equal values.

mod reference_support;

use reference_support::{expect_rows, seed};

const UNITS: &str = r#"
001,台
002,座
003,辆
004,艘
005,架
006,套
007,个
008,只
009,头
010,张
011,件
012,支
013,枝
014,根
015,条
016,把
017,块
018,卷
019,副
020,片
021,组
022,份
023,幅
025,双
026,对
027,棵
028,株
029,井
030,米
031,盘
032,平方米
033,立方米
034,筒
035,千克
036,克
037,盆
038,万个
039,具
040,百副
041,百支
042,百把
043,百个
044,百片
045,刀
046,疋
047,公担
048,扇
049,百枝
050,千只
051,千块
052,千盒
053,千枝
054,千个
055,亿支
056,亿个
057,万套
058,千张
059,万张
060,千伏安
061,千瓦
062,千瓦时
063,千升
067,英尺
070,吨
071,长吨
072,短吨
073,司马担
074,司马斤
075,斤
076,磅
077,担
078,英担
079,短担
080,两
081,市担
083,盎司
084,克拉
085,市尺
086,码
088,英寸
089,寸
095,升
096,毫升
097,英加仑
098,美加仑
099,立方英尺
101,立方尺
110,平方码
111,平方英尺
112,平方尺
115,英制马力
116,公制马力
118,令
120,箱
121,批
122,罐
123,桶
124,扎
125,包
126,箩
127,打
128,筐
129,罗
130,匹
131,册
132,本
133,发
134,枚
135,捆
136,袋
139,粒
140,盒
141,合
142,瓶
143,千支
144,万双
145,万粒
146,千粒
147,千米
148,千英尺
149,百万贝可
163,部
164,亿株
"#;

const COUNTRIES: &str = r#"
ABW,阿鲁巴,Aruba
AFG,阿富汗,Afghanistan
AGO,安哥拉,Angola
AIA,安圭拉,Anguilla
ALA,阿兰群岛（波罗的海中芬兰所属群岛）,Åland Islands
ALB,阿尔巴尼亚,Albania
AND,安道尔,Andorra
ARE,阿联酋,United Arab Emirates (the)
ARG,阿根廷,Argentina
ARM,亚美尼亚,Armenia
ASM,美属萨摩亚,American Samoa
ATA,南极洲,Antarctica
ATF,法属南部领地,French Southern Territories (the)
ATG,安提瓜和巴布达,Antigua and Barbuda
AUS,澳大利亚,Australia
AUT,奥地利,Austria
AZE,阿塞拜疆,Azerbaijan
BDI,布隆迪,Burundi
BEL,比利时,Belgium
BEN,贝宁,Benin
BES,博内尔岛、圣尤斯特歇斯岛和萨巴岛,"Bonaire, Sint Eustatius and Saba"
BFA,布基纳法索,Burkina Faso
BGD,孟加拉,Bangladesh
BGR,保加利亚,Bulgaria
BHR,巴林,Bahrain
BHS,巴哈马,Bahamas (the)
BIH,波斯尼亚和黑塞哥维那,Bosnia and Herzegovina
BLM,加勒比海圣巴特岛,Saint Barthélemy
BLR,白俄罗斯,Belarus
BLZ,伯利兹,Belize
BMU,百慕大,Bermuda
BOL,玻利维亚,Bolivia (Plurinational State of)
BRA,巴西,Brazil
BRB,巴巴多斯,Barbados
BRN,文莱,Brunei Darussalam
BTN,不丹,Bhutan
BVT,布维岛,Bouvet Island
BWA,博茨瓦纳,Botswana
CAF,中非,Central African Republic (the)
CAI,加那利群岛,Canary Islands
CAN,加拿大,Canada
CCK,科科斯（基林）群岛,Cocos (Keeling) Islands (the)
CEU,休达,Ceuta
CHE,瑞士,Switzerland
CHL,智利,Chile
CHN,中国,China
CIV,科特迪瓦,Côte d'Ivoire
CMR,喀麦隆,Cameroon
COD,刚果（金）,Congo (the Democratic Republic of the)
COG,刚果（布）,Congo (the)
COK,库克群岛,Cook Islands (the)
COL,哥伦比亚,Colombia
COM,科摩罗,Comoros (the)
CPV,佛得角,Cabo Verde
CRI,哥斯达黎加,Costa Rica
CUB,古巴,Cuba
CUW,库腊索岛,Curaçao
CXR,圣诞岛,Christmas Island
CYM,开曼群岛,Cayman Islands (the)
CYP,塞浦路斯,Cyprus
CZE,捷克,Czechia
DEU,德国,Germany
DJI,吉布提,Djibouti
DMA,多米尼克,Dominica
DNK,丹麦,Denmark
DOM,多米尼加,Dominican Republic (the)
DZA,阿尔及利亚,Algeria
ECU,厄瓜多尔,Ecuador
EGY,埃及,Egypt
ERI,厄立特里亚,Eritrea
ESH,西撒哈拉,Western Sahara*
ESP,西班牙,Spain
EST,爱沙尼亚,Estonia
ETH,埃塞俄比亚,Ethiopia
FIN,芬兰,Finland
FJI,斐济,Fiji
FLK,福克兰群岛(马尔维纳斯),Falkland Islands (the) [Malvinas]
FRA,法国,France
FRO,法罗群岛,Faroe Islands (the)
FSM,密克罗尼西亚(联邦),Micronesia (Federated States of)
GAB,加蓬,Gabon
GAM,盖比群岛,Gambier Islands
GBR,英国,United Kingdom of Great Britain and Northern Ireland (the)
GEO,格鲁吉亚,Georgia
GGY,根西岛,Guernsey
GHA,加纳,Ghana
GIB,直布罗陀,Gibraltar
GIN,几内亚,Guinea
GLP,瓜德罗普,Guadeloupe
GMB,冈比亚,Gambia (the)
GNB,几内亚比绍,Guinea-Bissau
GNQ,赤道几内亚,Equatorial Guinea
GRC,希腊,Greece
GRD,格林纳达,Grenada
GRL,格陵兰,Greenland
GTM,危地马拉,Guatemala
GUF,法属圭亚那,French Guiana
GUM,关岛,Guam
GUY,圭亚那,Guyana
HKG,香港,Hong Kong
HMD,赫德岛和麦克唐纳岛,Heard Island and McDonald Islands
HND,洪都拉斯,Honduras
HRV,克罗地亚,Croatia
HTI,海地,Haiti
HUN,匈牙利,Hungary
IDN,印度尼西亚,Indonesia
IMN,马恩岛,Isle of Man
IND,印度,India
IOT,英属印度洋领地,British Indian Ocean Territory (the)
IRL,爱尔兰,Ireland
IRN,伊朗,Iran (Islamic Republic of)
IRQ,伊拉克,Iraq
ISL,冰岛,Iceland
ISR,以色列,Israel
ITA,意大利,Italy
JAM,牙买加,Jamaica
JEY,泽西岛,Jersey
JOR,约旦,Jordan
JPN,日本,Japan
KAZ,哈萨克斯坦,Kazakhstan
KEN,肯尼亚,Kenya
KGZ,吉尔吉斯斯坦,Kyrgyzstan
KHM,柬埔寨,Cambodia
KIR,基里巴斯,Kiribati
KNA,圣基茨和尼维斯,Saint Kitts and Nevis
KOR,韩国,Korea (the Republic of)
KWT,科威特,Kuwait
LAO,老挝,Lao People's Democratic Republic (the)
LBN,黎巴嫩,Lebanon
LBR,利比里亚,Liberia
LBY,利比亚,Libya
LCA,圣卢西亚,Saint Lucia
LIE,列支敦士登,Liechtenstein
LKA,斯里兰卡,Sri Lanka
LSO,莱索托,Lesotho
LTU,立陶宛,Lithuania
LUX,卢森堡,Luxembourg
LVA,拉脱维亚,Latvia
MAC,澳门,Macao
MAF,圣马丁(法国),Saint Martin (French part)
MAI,马克萨斯群岛,Marquesas Islands
MAR,摩洛哥,Morocco
MCO,摩纳哥,Monaco
MDA,摩尔多瓦,Moldova (the Republic of)
MDG,马达加斯加,Madagascar
MDV,马尔代夫,Maldives
MEL,梅利利亚,Melilla
MEX,墨西哥,Mexico
MHL,马绍尔群岛,Marshall Islands (the)
MKD,马其顿,Macedonia (the former Yugoslav Republic of)
MLI,马里,Mali
MLT,马耳他,Malta
MMR,缅甸,Myanmar
MNE,黑山共和国,Montenegro
MNG,蒙古,Mongolia
MNP,北马里亚纳自由联邦,Northern Mariana Islands (the)
MOZ,莫桑比克,Mozambique
MRT,毛里塔尼亚,Mauritania
MSR,蒙特塞拉特,Montserrat
MTQ,马提尼克,Martinique
MUS,毛里求斯,Mauritius
MWI,马拉维,Malawi
MYS,马来西亚,Malaysia
MYT,马约特,Mayotte
NAM,纳米比亚,Namibia
NCL,新喀里多尼亚,New Caledonia
NER,尼日尔,Niger (the)
NFK,诺福克岛,Norfolk Island
NGA,尼日利亚,Nigeria
NIC,尼加拉瓜,Nicaragua
NIU,纽埃,Niue
NLD,荷兰,Netherlands (the)
NOR,挪威,Norway
NPL,尼泊尔,Nepal
NRU,瑙鲁,Nauru
NZL,新西兰,New Zealand
OMN,阿曼,Oman
PAK,巴基斯坦,Pakistan
PAN,巴拿马,Panama
PCN,皮特凯恩,Pitcairn
PER,秘鲁,Peru
PHL,菲律宾,Philippines (the)
PLW,帕劳,Palau
PNG,巴布亚新几内亚,Papua New Guinea
POL,波兰,Poland
PRI,波多黎各,Puerto Rico
PRK,朝鲜,Korea (the Democratic People's Republic of)
PRT,葡萄牙,Portugal
PRY,巴拉圭,Paraguay
PSE,巴勒斯坦,"Palestine, State of"
PYF,法属波利尼西亚,French Polynesia
QAT,卡塔尔,Qatar
REU,留尼汪,Réunion
ROU,罗马尼亚,Romania
RUS,俄罗斯联邦,Russian Federation (the)
RWA,卢旺达,Rwanda
SAU,沙特阿拉伯,Saudi Arabia
SDN,苏丹,Sudan (the)
SEN,塞内加尔,Senegal
SGP,新加坡,Singapore
SGS,南乔治亚岛和南桑德韦奇岛,South Georgia and the South Sandwich Islands
SHN,圣赫勒拿,"Saint Helena, Ascension and Tristan da Cunha"
SJM,斯瓦尔巴岛和扬马延岛,Svalbard and Jan Mayen
SLB,所罗门群岛,Solomon Islands
SLE,塞拉利昂,Sierra Leone
SLV,萨尔瓦多,El Salvador
SMR,圣马力诺,San Marino
SOC,社会群岛,Society Islands
SOM,索马里,Somalia
SPM,圣皮埃尔和密克隆,Saint Pierre and Miquelon
SRB,塞尔维亚共和国,Serbia
SSD,南苏丹,South Sudan
STP,圣多美和普林西比,Sao Tome and Principe
SUR,苏里南,Suriname
SVK,斯洛伐克,Slovakia
SVN,斯洛文尼亚,Slovenia
SWE,瑞典,Sweden
SWZ,斯威士兰,Swaziland
SXM,荷属圣马丁岛,Sint Maarten (Dutch part)
SYC,塞舌尔,Seychelles
SYR,叙利亚,Syrian Arab Republic
TCA,特克斯和凯科斯群岛,Turks and Caicos Islands (the)
TCD,乍得,Chad
TGO,多哥,Togo
THA,泰国,Thailand
TJK,塔吉克斯坦,Tajikistan
TKL,托克劳,Tokelau
TKM,土库曼斯坦,Turkmenistan
TLS,东帝汶,Timor-Leste
TON,汤加,Tonga
TTO,特立尼达和多巴哥,Trinidad and Tobago
TUA,土阿莫土群岛,Tuamotu Islands
TUB,土布艾群岛,Tubai Islands
TUN,突尼斯,Tunisia
TUR,土耳其,Turkey
TUV,图瓦卢,Tuvalu
TWN,台湾,Taiwan (Province of China)
TZA,坦桑尼亚,"Tanzania, United Republic of"
UGA,乌干达,Uganda
UKR,乌克兰,Ukraine
UMI,美国本土外小岛屿,United States Minor Outlying Islands (the)
URY,乌拉圭,Uruguay
USA,美国,United States of America (the)
UZB,乌兹别克斯坦,Uzbekistan
VAT,梵蒂冈,Holy See (the)
VCT,圣文森特和格林纳丁斯,Saint Vincent and the Grenadines
VEN,委内瑞拉,Venezuela (Bolivarian Republic of)
VGB,英属维尔京群岛,Virgin Islands (British)
VIR,美属维尔京群岛,Virgin Islands (U.S.)
VNM,越南,Viet Nam
VUT,瓦努阿图,Vanuatu
WLF,瓦利斯和富图纳,Wallis and Futuna
WSM,萨摩亚,Samoa
YEM,也门,Yemen
ZAF,南非,South Africa
ZAS,亚洲其他国家(地区),Asia other
ZEU,欧洲其他国家(地区),Europe other
ZMB,赞比亚,Zambia
ZNA,北美洲其他国家(地区),North America other
ZOC,大洋洲其他国家(地区),Oceania other
ZSA,拉丁美洲其他国家(地区),South America other
ZUN,联合国及机构和国际组织,UN and oth.int'l org
ZWE,津巴布韦,Zimbabwe
ZZZ,国(地)别不详,Countries(reg.) unknow
"#;

const LEVY_TYPES: &str = r#"
101,一般征税,
118,整车征税,构成整车特征的汽车零部件纳税
119,零部件征税,不构成整车特征的汽车零部件纳税
201,无偿援助,无偿援助进出口物资
299,其他法定,其他法定减免税进出口货物
301,特定区域,特定区域进口自用物资及出口货物
307,保税区,保税区进口自用物资
399,其他地区,其他执行特殊政策地区出口货物
401,科教用品,大专院校及科研机构进口科教用品
403,技术改造,企业技术改造进口货物
406,重大项目,国家重大项目进口货物
408,重大技术装备,生产重大技术装备进口关键零部件及原材料
412,基础设施,通信、港口、铁路、公路、机场建设进口设备
413,残疾人,残疾人组织和企业进出口货物
417,远洋渔业,远洋渔业自捕水产品
418,国产化,国家定点生产小轿车和摄录机企业进口散件
419,整车特征,构成整车特征的汽车零部件进口
420,远洋船舶,远洋船舶及设备部件
421,内销设备,内销远洋船用设备及关键部件
422,集成电路,集成电路生产企业进口货物
423,新型显示器件,新型显示器件生产企业进口物资
499,ITA产品,非全税号信息技术产品
501,加工设备,加工贸易外商提供的不作价进口设备
502,来料加工,来料加工装配和补偿贸易进口料件及出口成品
503,进料加工,进料加工贸易进口料件及出口成品
506,边境小额,边境小额贸易进口货物
510,港澳OPA,港澳在内地加工的纺织品获证出口
601,中外合资,中外合资经营企业进出口货物
602,中外合作,中外合作经营企业进出口货物
603,外资企业,外商独资企业进出口货物
605,勘探开发煤层气,勘探开发煤层气
606,海洋石油,勘探、开发海洋石油进口货物
608,陆上石油,勘探、开发陆上石油进口货物
609,贷款项目,利用贷款进口货物
611,贷款中标,国际金融组织贷款、外国政府贷款中标机电设备零部件
698,公益收藏,国有公益性收藏单位进口藏品
789,鼓励项目,国家鼓励发展的内外资项目进口设备
799,自有资金,外商投资额度外利用自有资金进口设备、备件、配件
801,救灾捐赠,救灾捐赠进口物资
802,扶贫慈善,境外向我境内无偿捐赠用于扶贫慈善的免税进口物资
888,航材减免,经核准的航空公司进口维修用航空器材
898,国批减免,国务院特准减免税的进出口货物
997,自贸协定,
998,内部暂定,享受内部暂定税率的进出口货物
999,例外减免,例外减免税进出口货物
"#;

const SUPERVISION_MODES: &str = r#"
0110,一般贸易
0130,易货贸易
0200,料件销毁
0214,来料加工
0245,来料料件内销
0255,来料深加工
0258,来料余料结转
0265,来料料件复出
0300,来料料件退换
0314,加工专用油
0320,不作价设备
0345,来料成品减免
0400,边角料销毁
0420,加工贸易设备
0444,保区进料成品
0445,保区来料成品
0446,加工设备内销
0456,加工设备结转
0466,加工设备退运
0500,减免设备结转
0513,补偿贸易
0544,保区进料料件
0545,保区来料料件
0615,进料对口
0642,进料以产顶进
0644,进料料件内销
0654,进料深加工
0657,进料余料结转
0664,进料料件复出
0700,进料料件退换
0715,进料非对口
0744,进料成品减免
0815,低值辅料
0844,进料边角料内销
0845,来料边角料内销
0864,进料边角料复出
0865,来料边角料复出
1039,市场采购
1139,国轮油物料
1200,保税间货物
1210,保税电商
1215,保税工厂
1233,保税仓库货物
1234,保税区仓储转口
1239,保税电商A
1300,修理物品
1371,保税维修
1427,出料加工
1500,租赁不满1年
1523,租赁贸易
1616,寄售代销
1741,免税品
1831,外汇商品
2025,合资合作设备
2210,对外投资
2225,外资设备物品
2439,常驻机构公用
2600,暂时进出货物
2700,展览品
2939,陈列样品
3010,货样广告品
3100,无代价抵偿
3339,其他进出口免费
3410,承包工程进口
3422,对外承包出口
3511,援助物资
3611,无偿军援
3612,捐赠物资
3910,军事装备
4019,边境小额
4039,对台小额
4139,对台小额商品交易市场
4200,驻外机构运回
4239,驻外机构购进
4400,来料成品退换
4500,直接退运
4539,进口溢误卸
4561,退运货物
4600,进料成品退换
5000,料件进出区
5010,特殊区域研发货物
5014,区内来料加工
5015,区内进料加工货物
5033,区内仓储货物
5034,区内物流货物
5100,成品进出区
5300,设备进出区
5335,境外设备进区
5361,区内设备退运
6033,物流中心进出境货物
9600,内贸货物跨境运输
9610,电子商务
9639,海关处理货物
9700,后续补税
9739,其他贸易
9800,租赁征税
9839,留赠转卖物品
9900,其他
"#;

const SUPERVISION_SUPPLEMENT: &str = r#"
9710,跨境电商B2B直接出口,跨境电子商务企业对企业直接出口
9810,跨境电商出口海外仓,跨境电子商务出口海外仓
9610,电子商务,跨境贸易电子商务
1210,保税电商,保税跨境贸易电子商务
"#;

const TRANSPORT_MODES: &str = r#"
0,非保税区
1,监管仓库
2,水路运输
3,铁路运输
4,公路运输
5,航空运输
6,邮件运输
7,保税区
8,保税仓库
9,其他方式运输
G,固定设施运输
H,边境特殊海关作业区
L,旅客携带
T,综合实验区
W,物流中心
X,物流园区
Y,保税港区
Z,出口加工区
"#;

const PACKING_TYPES: &str = r#"
00,散装
01,裸装
04,球状罐类
06,包/袋
22,纸制或纤维板制盒/箱
23,木制或竹藤等植物性材料制盒/箱
29,其他材料制盒/箱
32,纸制或纤维板制桶
33,木制或竹藤等植物性材料制桶
39,其他材料制桶
92,再生木托
93,天然木托
99,其他包装
"#;

const TRADE_TERMS: &str = r#"
1,CIF
2,C&F
3,FOB
4,C&I
5,市场价
6,垫仓
7,EXW
"#;

const CURRENCIES: &str = r#"
AUD,澳大利亚元,Australian Dollar
CAD,加拿大元,Canadian Dollar
CHF,瑞士法郎,Swiss Franc
CNY,人民币,Yuan Renminbi
DKK,丹麦克朗,Danish Krone
EUR,欧元,Euro
GBP,英镑,Pound Sterling
HKD,港币,Hong Kong Dollar
IDR,印度尼西亚卢比,Rupiah
JPY,日本元,Yen
KRW,韩国圆,Won
MOP,澳门元,Pataca
MYR,马来西亚林吉特,Malaysian Ringgit
NOK,挪威克朗,Norwegian Krone
NZD,新西兰元,New Zealand Dollar
PHP,菲律宾比索,Philippine Piso
RUB,俄罗斯卢布,Russian Ruble
SEK,瑞典克朗,Swedish Krona
SGD,新加坡元,Singapore Dollar
THB,泰国铢,Baht
TWD,新台币,New Taiwan Dollar
USD,美元,US Dollar
"#;

#[test]
fn reference_tables_match_the_public_copies() {
    expect_rows(&seed("units"), "units", &["name"], UNITS);
    expect_rows(
        &seed("countries"),
        "countries",
        &["name", "nameEn"],
        COUNTRIES,
    );
    expect_rows(
        &seed("levy-types"),
        "levy-types",
        &["name", "description"],
        LEVY_TYPES,
    );
    expect_rows(
        &seed("supervision-modes"),
        "supervision-modes",
        &["name"],
        SUPERVISION_MODES,
    );
    expect_rows(
        &seed("supervision-modes"),
        "supervision-modes",
        &["name", "fullName"],
        SUPERVISION_SUPPLEMENT,
    );
    expect_rows(
        &seed("transport-modes"),
        "transport-modes",
        &["name"],
        TRANSPORT_MODES,
    );
    expect_rows(
        &seed("packing-types"),
        "packing-types",
        &["name"],
        PACKING_TYPES,
    );
    expect_rows(&seed("trade-terms"), "trade-terms", &["name"], TRADE_TERMS);
    expect_rows(
        &seed("currencies"),
        "currencies",
        &["name", "nameEn"],
        CURRENCIES,
    );
}
