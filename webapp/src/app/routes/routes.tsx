// Every route of spec 2.1-2.4, nested as the spec lists them. A child's path is its
// parent's joined with its own; a child named like its parent is the parent's index page;
// hidden detail pages take the declaration id in the query (`?id=`).
import { lazy } from 'react';
import {
  IconAlertTriangle,
  IconFileDescription,
  IconFileExport,
  IconFileImport,
  IconHome,
  IconRobot,
  IconSearch,
  IconShieldCheck,
  IconSettings,
  IconUserCircle,
  IconUsers,
} from '@tabler/icons-react';
import type { Role } from '@/lib/roles';
import { declarationPage } from './declarationPages';
import type { AppRoute } from '@/shared/routing/types';

const ContactBook = lazy(() => import('@/features/contact-book/pages/ContactBookPage'));
const RecipientLink = lazy(() => import('@/features/clearance-exceptions/pages/RecipientLinkPage'));
const AiCreate = lazy(() => import('@/features/ai-create/pages/AiCreatePage'));
const AssistCreate = lazy(() => import('@/features/assist-create/pages/AssistCreatePage'));
const CustomerLogin = lazy(() => import('@/features/auth/pages/CustomerLoginPage'));
const StaffLogin = lazy(() => import('@/features/auth/pages/StaffLoginPage'));
const AuthRedirect = lazy(() => import('@/features/auth/pages/AuthRedirectPage'));
const PassReset = lazy(() => import('@/features/auth/pages/PassResetPage'));
const PassUpdate = lazy(() => import('@/features/auth/pages/PassUpdatePage'));
const ForgetPassword = lazy(() => import('@/features/auth/pages/ForgetPasswordPage'));
const AccountTransfer = lazy(() => import('@/features/auth/pages/AccountTransferPage'));
const Lasso = lazy(() => import('@/features/auth/pages/LassoPage'));
const CenterAccount = lazy(() => import('@/features/account-center/pages/AccountPage'));
const CenterBind = lazy(() => import('@/features/account-center/pages/BindPage'));
const TradeCompanies = lazy(() => import('@/features/master-data/pages/TradeCompaniesPage'));
const Products = lazy(() => import('@/features/master-data/pages/ProductsPage'));
const MappingCenter = lazy(() => import('@/features/master-data/pages/MappingSchemesPage'));
const MappingList = lazy(() =>
  import('@/features/master-data/pages/MappingSchemesPage').then((m) => ({
    default: m.MappingListPage,
  })),
);
const MappingEditor = lazy(() =>
  import('@/features/master-data/pages/MappingSchemesPage').then((m) => ({
    default: m.MappingEditorPage,
  })),
);
const Environment = lazy(() => import('@/features/system/pages/EnvironmentPage'));
const Forbidden = lazy(() => import('@/features/system/pages/ForbiddenPage'));
const NotFound = lazy(() => import('@/features/system/pages/NotFoundPage'));
const Unauthorized = lazy(() => import('@/features/system/pages/UnauthorizedPage'));
const CustomerWelcome = lazy(() => import('@/features/welcome/pages/CustomerWelcomePage'));
const AdminWelcome = lazy(() => import('@/features/welcome/pages/AdminWelcomePage'));
const StaffList = lazy(() => import('@/features/platform/pages/StaffListPage'));
const AddStaff = lazy(() => import('@/features/platform/pages/AddStaffPage'));
const Roles = lazy(() => import('@/features/platform/pages/RolesPage'));
const Ports = lazy(() => import('@/features/platform/pages/PortsPage'));
const Audit = lazy(() => import('@/features/platform/pages/AuditPage'));
const Erasure = lazy(() => import('@/features/personal-data/pages/ErasurePage'));
const CustomsChannel = lazy(() => import('@/features/customs-channel/pages/CustomsChannelPage'));
const ReferenceImport = lazy(() => import('@/features/reference-import/pages/ReferenceImportPage'));
const CustomerList = lazy(() => import('@/features/customers/pages/CustomerListPage'));
const CustomerDetail = lazy(() => import('@/features/customers/pages/CustomerDetailPage'));
const ExceptionList = lazy(() => import('@/features/clearance-exceptions/pages/ExceptionListPage'));
const ExceptionCreate = lazy(
  () => import('@/features/clearance-exceptions/pages/ExceptionCreatePage'),
);
const ExceptionDetail = lazy(
  () => import('@/features/clearance-exceptions/pages/ExceptionDetailPage'),
);

const ComplianceLog = lazy(() => import('@/features/compliance/pages/LogPage'));
const ComplianceStream = lazy(() => import('@/features/compliance/pages/StreamPage'));
const ComplianceChain = lazy(() => import('@/features/compliance/pages/ChainPage'));

const CUSTOMER: readonly Role[] = ['CUSTOMER'];
const STAFF: readonly Role[] = ['OPERATOR', 'ADMIN'];
/** Every staff role, the reviewer included: pages gated by a permission alone. */
const ANY_STAFF: readonly Role[] = ['OPERATOR', 'ADMIN', 'COMPLIANCE'];

const list = declarationPage('DeclarationListPage');
const detail = declarationPage('DeclarationDetailPage');
const form = declarationPage('DeclarationFormPage');

type Area = 'customer' | 'staff';

/** export/import groups with their B, C and D lists. */
function shipmentGroups(prefix: string, area: Area): AppRoute[] {
  return (['export', 'import'] as const).map((dir) => ({
    path: dir,
    name: `${prefix}-${dir}`,
    meta: { title: `route.${dir}`, icon: dir === 'export' ? IconFileExport : IconFileImport },
    redirect: `${dir}-b`,
    children: (['b', 'c', 'd'] as const).map((cls) => ({
      path: `${dir}-${cls}`,
      name: `${prefix}-${dir}-${cls}`,
      meta: {
        title: `route.${dir}${cls.toUpperCase()}`,
        declarationType: `${dir === 'export' ? 'O' : 'I'}${cls.toUpperCase()}`,
        area,
      },
      component: list,
    })),
  }));
}

/** Export and import exception lists, the hidden create form and detail (`?id=`). */
function exceptionPages(prefix: string, base: string, area: Area): AppRoute[] {
  return [
    {
      path: 'export',
      name: `${prefix}-export`,
      meta: { title: 'route.exceptionExport', area, exceptionDirection: 'export' },
      component: ExceptionList,
    },
    {
      path: 'import',
      name: `${prefix}-import`,
      meta: { title: 'route.exceptionImport', area, exceptionDirection: 'import' },
      component: ExceptionList,
    },
    {
      path: 'createException',
      name: `${prefix}-create`,
      // Staff raise one from a declaration (hidden, spec 2.4); the customer menu offers it.
      meta: { title: 'route.exceptionCreate', hidden: area === 'staff', noCache: true, area },
      component: ExceptionCreate,
    },
    {
      path: 'detail',
      name: `${prefix}-detail`,
      meta: {
        title: 'route.exceptionDetail',
        hidden: true,
        noCache: true,
        area,
        activeMenu: `${base}/export`,
      },
      component: ExceptionDetail,
    },
  ];
}

/** Hidden detail pages: detail, detail-c, detail-b, each with :shipmentType. */
function detailPages(prefix: string, title: string, area: Area, page = detail): AppRoute[] {
  return (
    [
      ['detail', 'D'],
      ['detail-c', 'C'],
      ['detail-b', 'B'],
    ] as const
  ).map(([path, cls]) => ({
    path: `${path}/:shipmentType`,
    name: `${prefix}-${path}`,
    meta: { title, hidden: true, noCache: true, declarationClass: cls, area },
    component: page,
  }));
}

export const publicRoutes: AppRoute[] = [
  {
    path: '/login-c',
    name: 'login-c',
    meta: { title: 'route.loginC', public: true },
    component: CustomerLogin,
  },
  {
    path: '/login-b',
    name: 'login-b',
    meta: { title: 'route.loginB', public: true },
    component: StaffLogin,
  },
  {
    path: '/auth-redirect',
    name: 'auth-redirect',
    meta: { title: 'route.authRedirect', public: true },
    component: AuthRedirect,
  },
  {
    path: '/azure-redirect',
    name: 'azure-redirect',
    meta: { title: 'route.authRedirect', public: true },
    component: AuthRedirect,
  },
  {
    path: '/account-transfer',
    name: 'account-transfer',
    meta: { title: 'route.accountTransfer', public: true },
    component: AccountTransfer,
  },
  {
    path: '/pass-reset',
    name: 'pass-reset',
    meta: { title: 'route.passReset', public: true, needsTempToken: true },
    component: PassReset,
  },
  {
    path: '/pass-update',
    name: 'pass-update',
    meta: { title: 'route.passUpdate', public: true },
    component: PassUpdate,
  },
  {
    path: '/forget-password',
    name: 'forget-password',
    meta: { title: 'route.forgetPassword', public: true },
    component: ForgetPassword,
  },
  {
    path: '/environment',
    name: 'environment',
    meta: { title: 'route.environment', public: true },
    component: Environment,
  },
  {
    path: '/404',
    name: '404',
    meta: { title: 'route.notFound', public: true },
    component: NotFound,
  },
  {
    path: '/401',
    name: '401',
    meta: { title: 'route.unauthorized', public: true },
    component: Unauthorized,
  },
  {
    path: '/lasso/callback',
    name: 'lasso-callback',
    meta: { title: 'route.lassoCallback', public: true },
    component: Lasso,
  },
  {
    path: '/lasso/test',
    name: 'lasso-test',
    meta: { title: 'route.lassoTest', public: true },
    component: Lasso,
  },
  {
    path: '/temporarily',
    name: 'temporarily',
    meta: { title: 'route.temporarily', public: true },
    children: [
      {
        path: '',
        name: 'temporarily-index',
        meta: { title: 'route.temporarily', public: true },
        component: RecipientLink,
      },
      {
        path: 'detail',
        name: 'temporarily-detail',
        meta: { title: 'route.temporarilyDetail', public: true },
        component: RecipientLink,
      },
    ],
  },
  {
    path: '/page-pdf',
    name: 'page-pdf',
    meta: { title: 'route.pagePdf', public: true, hidden: true },
    component: declarationPage('DeclarationPdfPage'),
  },
];

/**
 * Public pages shown inside the shell when signed in (the menu stays, so a refused page is
 * no dead end) and bare otherwise.
 */
export const statusRoutes: AppRoute[] = [
  {
    path: '/403',
    name: '403',
    meta: { title: 'route.forbidden', public: true, hidden: true },
    component: Forbidden,
  },
];

export const customerRoutes: AppRoute[] = [
  {
    path: '/customer-welcome',
    name: 'customer-welcome',
    meta: { title: 'route.home', icon: IconHome, roles: CUSTOMER, affix: true },
    component: CustomerWelcome,
  },
  {
    path: '/customs-clearance-supply',
    name: 'customs-clearance-supply',
    meta: {
      title: 'route.customsDocuments',
      icon: IconFileDescription,
      roles: CUSTOMER,
      alwaysShow: true,
    },
    redirect: 'export',
    children: [
      {
        path: 'all',
        name: 'supply-all',
        meta: { title: 'route.allDeclarations', area: 'customer' },
        component: declarationPage('AllDeclarationsPage'),
      },
      ...shipmentGroups('supply', 'customer'),
      {
        path: 'assist-to-create',
        name: 'supply-assist-to-create',
        meta: { title: 'route.assistCreate', area: 'customer', noCache: true },
        component: AssistCreate,
      },
      ...detailPages('supply', 'route.customsDeclaration', 'customer'),
    ],
  },
  {
    // The header's tracking-number search: the status query's page, for customers (their
    // own) and staff with the declaration menu (any customer's).
    path: '/find',
    name: 'find',
    meta: {
      title: 'route.find',
      roles: [...CUSTOMER, ...STAFF],
      hidden: true,
      noCache: true,
    },
    component: declarationPage('StatusQueryPage'),
  },
  {
    path: '/customers-status-query',
    name: 'customers-status-query',
    meta: { title: 'route.statusQuery', icon: IconSearch, roles: CUSTOMER, closesMenuGroups: true },
    component: declarationPage('StatusQueryPage'),
  },
  {
    path: '/customer-exception',
    name: 'customer-exception',
    meta: {
      title: 'route.clearanceException',
      icon: IconAlertTriangle,
      roles: CUSTOMER,
      alwaysShow: true,
    },
    redirect: 'export',
    children: exceptionPages('customer-exception', '/customer-exception', 'customer'),
  },
  {
    path: '/customers-center',
    name: 'customers-center',
    meta: {
      title: 'route.customersCenter',
      icon: IconUserCircle,
      roles: CUSTOMER,
      alwaysShow: true,
    },
    redirect: 'account',
    children: [
      {
        path: 'account',
        name: 'center-account',
        meta: { title: 'route.centerAccount' },
        component: CenterAccount,
      },
      {
        path: 'trade',
        name: 'center-trade',
        meta: { title: 'route.centerTrade' },
        component: TradeCompanies,
      },
      {
        path: 'product',
        name: 'center-product',
        meta: { title: 'route.centerProduct' },
        component: Products,
      },
      {
        path: 'mapping',
        name: 'center-mapping',
        meta: { title: 'route.centerMapping' },
        component: MappingCenter,
      },
      {
        path: 'contacts',
        name: 'center-contacts',
        meta: { title: 'route.centerContacts' },
        component: ContactBook,
      },
      {
        path: 'bind',
        name: 'center-bind',
        meta: { title: 'route.centerBind', hidden: true, activeMenu: '/customers-center/account' },
        component: CenterBind,
      },
    ],
  },
];

export const staffRoutes: AppRoute[] = [
  {
    path: '/admin-welcome',
    name: 'admin-welcome',
    meta: { title: 'route.home', icon: IconHome, roles: STAFF, hidden: true, affix: true },
    component: AdminWelcome,
  },
  {
    path: '/customs-clearance',
    name: 'customs-clearance',
    meta: {
      title: 'route.customsDocuments',
      icon: IconFileDescription,
      roles: STAFF,
      level: 1,
      permissionTag: 'declarations:management',
      alwaysShow: true,
    },
    redirect: 'export',
    children: [
      {
        path: 'all',
        name: 'staff-all',
        meta: { title: 'route.allDeclarations', area: 'staff' },
        component: declarationPage('AllDeclarationsPage'),
      },
      ...shipmentGroups('staff', 'staff'),
      ...detailPages('staff', 'route.declarationDetail', 'staff'),
    ],
  },
  {
    path: '/clearance-exception',
    name: 'clearance-exception',
    meta: {
      title: 'route.clearanceException',
      icon: IconAlertTriangle,
      roles: STAFF,
      permissionTag: 'clearance:management',
      alwaysShow: true,
    },
    redirect: 'export',
    children: exceptionPages('exception', '/clearance-exception', 'staff'),
  },
  {
    path: '/customers-profile',
    name: 'customers-profile',
    meta: {
      title: 'route.customerManagement',
      icon: IconUsers,
      roles: STAFF,
      permissionTag: 'customers:management',
      alwaysShow: true,
    },
    children: [
      {
        path: '',
        name: 'customers-profile-list',
        meta: { title: 'route.customerArchive' },
        component: CustomerList,
      },
      {
        path: 'ai-create',
        name: 'ai-create',
        meta: { title: 'route.aiCreate', icon: IconRobot, specialIcon: true },
        component: AiCreate,
      },
      {
        path: 'assist-to-create',
        name: 'assist-to-create',
        // Creating needs the declaration code too (the server's guard on create and validate).
        meta: { title: 'route.assistCreate', permissionTag: 'declarations:management' },
        component: AssistCreate,
      },
      {
        path: 'mapping-list',
        name: 'mapping-list',
        meta: { title: 'route.mappingList' },
        component: MappingList,
      },
      {
        path: 'mapping-detail',
        name: 'mapping-detail',
        meta: {
          title: 'route.mappingDetail',
          hidden: true,
          activeMenu: '/customers-profile/mapping-list',
        },
        component: MappingEditor,
      },
      {
        path: 'mapping-create',
        name: 'mapping-create',
        meta: {
          title: 'route.mappingCreate',
          hidden: true,
          activeMenu: '/customers-profile/mapping-list',
        },
        component: MappingEditor,
      },
      {
        path: 'customers-detail',
        name: 'customers-detail',
        meta: { title: 'route.customerDetail', hidden: true, activeMenu: '/customers-profile' },
        component: CustomerDetail,
      },
      {
        path: 'opera-record',
        name: 'opera-record',
        meta: { title: 'route.operaRecord', hidden: true, activeMenu: '/customers-profile' },
        component: declarationPage('DeclarationRecordsPage'),
      },
      {
        path: 'detail',
        name: 'profile-detail-new',
        meta: {
          title: 'route.declarationSubmit',
          hidden: true,
          noCache: true,
          declarationClass: 'D',
          area: 'staff',
        },
        component: form,
      },
      ...detailPages('profile', 'route.declarationSubmit', 'staff', form),
    ],
  },
  {
    path: '/platform-mgt',
    name: 'platform-mgt',
    // Each page is gated by its permission, so whoever holds one (the reviewer too) opens
    // it at the same path: /platform-mgt/personal-data is the one erasure page.
    meta: { title: 'route.platform', icon: IconSettings, roles: ANY_STAFF, alwaysShow: true },
    redirect: 'employee',
    children: [
      {
        path: 'employee',
        name: 'platform-employee',
        meta: { title: 'route.employee', permissionTag: 'staff:management' },
        component: StaffList,
      },
      {
        path: 'roles',
        name: 'platform-roles',
        meta: { title: 'route.roles', permissionTag: 'roles:management' },
        component: Roles,
      },
      {
        path: 'port',
        name: 'platform-port',
        meta: { title: 'route.port', permissionTag: 'ports:management' },
        component: Ports,
      },
      {
        path: 'audit',
        name: 'platform-audit',
        meta: { title: 'platform.routeAudit', permissionTag: 'staff:management' },
        component: Audit,
      },
      {
        path: 'customs',
        name: 'platform-customs',
        meta: { title: 'customs.route', permissionTag: 'customs:management' },
        component: CustomsChannel,
      },
      {
        path: 'personal-data',
        name: 'platform-personal-data',
        meta: { title: 'personalData.route', permissionTag: 'personal-data:erase' },
        component: Erasure,
      },
      {
        path: 'reference-import',
        name: 'platform-reference-import',
        meta: { title: 'platform.referenceImport.route', roles: ['ADMIN'] },
        component: ReferenceImport,
      },
      {
        path: 'add',
        name: 'platform-add',
        meta: {
          title: 'route.employeeAdd',
          hidden: true,
          activeMenu: '/platform-mgt/employee',
          permissionTag: 'staff:management',
        },
        component: AddStaff,
      },
    ],
  },
  {
    path: '/compliance',
    name: 'compliance',
    meta: {
      title: 'compliance.route.group',
      icon: IconShieldCheck,
      roles: ANY_STAFF,
      permissionTag: 'audit:read',
      alwaysShow: true,
    },
    redirect: 'log',
    children: [
      {
        path: 'log',
        name: 'compliance-log',
        meta: { title: 'compliance.route.log' },
        component: ComplianceLog,
      },
      {
        path: 'stream',
        name: 'compliance-stream',
        meta: {
          title: 'compliance.route.stream',
          hidden: true,
          noCache: true,
          activeMenu: '/compliance/log',
        },
        component: ComplianceStream,
      },
      {
        path: 'chain',
        name: 'compliance-chain',
        meta: { title: 'compliance.route.chain' },
        component: ComplianceChain,
      },
    ],
  },
];

/** The protected routes rendered inside the shell. */
export const protectedRoutes: AppRoute[] = [...customerRoutes, ...staffRoutes];

export const NotFoundPage = NotFound;
