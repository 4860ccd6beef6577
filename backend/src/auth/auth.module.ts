import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { JWT_SECRET } from '../config/config.module';
import { UsersModule } from '../users/users.module';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { JwtStrategy } from './jwt.strategy';
import { PasswordHasher } from './password-hasher';
import { TokenAccounts } from './token-accounts';
import { TOKEN_LIFETIME_SECONDS } from './token-payload';

@Module({
  imports: [
    PassportModule,
    UsersModule,
    JwtModule.registerAsync({
      inject: [JWT_SECRET],
      useFactory: (secret: string) => ({
        secret,
        signOptions: { algorithm: 'HS256', expiresIn: TOKEN_LIFETIME_SECONDS },
      }),
    }),
  ],
  controllers: [AuthController],
  providers: [AuthService, JwtStrategy, PasswordHasher, TokenAccounts],
  // The account settings (account/) check passwords and issue the token that outlives a password
  // change; the signed-in read cache (reader-state/) authenticates with the strategy's own rules.
  exports: [AuthService, PasswordHasher, TokenAccounts],
})
export class AuthModule {}
